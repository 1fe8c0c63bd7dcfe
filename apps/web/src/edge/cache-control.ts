import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a public page's answer may be kept as: by this visitor's browser only, and never reused
 * without asking the site again. Unlike Next.js's `no-store` on every rendered page, it lets the
 * browser keep the page in its back/forward cache, so "Back" to the list or the animal is
 * instant (no-store pages are never put there).
 */
export const PUBLIC_PAGE_CACHE_CONTROL = 'private, no-cache';

/**
 * The public pages: browsing, an animal and its apply form, the guides, the questionnaire and the
 * visitor's favourites. Everything else (the back office, the developer portal, an application's
 * or a saved search's page reached by a secret link, errors) keeps `no-store`.
 */
const PUBLIC_PAGE = /^\/(?:$|pets\/\d+(?:\/apply)?$|how-adoption-works$|match$|favourites$)/;

/** The session cookie (lib/session.ts): a page rendered for a signed-in person is not reused. */
const SESSION_COOKIE = /(?:^|;\s*)pets_session=/;

/** Next.js's Cache-Control for a page rendered per request. */
const isRenderedPerRequest = (value: unknown): boolean =>
  typeof value === 'string' && value.includes('no-store') && value.includes('private');

/**
 * The Cache-Control this page's answer goes out with: `PUBLIC_PAGE_CACHE_CONTROL` for a public
 * page read by a visitor who is not signed in, answered 200 without a cookie being set; otherwise
 * whatever Next.js (or the route itself) said.
 */
export const pageCacheControl = (page: {
  method: string | undefined;
  path: string;
  hasSessionCookie: boolean;
  status: number;
  cacheControl: unknown;
  setsCookie: boolean;
}): unknown => {
  const isCacheable =
    (page.method === 'GET' || page.method === 'HEAD') &&
    PUBLIC_PAGE.test(page.path.split('?')[0] ?? '') &&
    !page.hasSessionCookie &&
    page.status === 200 &&
    !page.setsCookie &&
    isRenderedPerRequest(page.cacheControl);
  return isCacheable ? PUBLIC_PAGE_CACHE_CONTROL : page.cacheControl;
};

/**
 * Rewrites the response's Cache-Control per `pageCacheControl` just before its headers go out
 * (Node's implicit headers also pass through `writeHead`), once Next.js has set its own.
 */
export const cachePublicPages = (request: IncomingMessage, response: ServerResponse): void => {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return;
  }
  const hasSessionCookie = SESSION_COOKIE.test(request.headers.cookie ?? '');
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((status: number, ...rest: unknown[]) => {
    // writeHead(status, [message], [headers]): headers given here win over those set before.
    const given = rest.find((each) => typeof each === 'object' && each !== null) as
      | Record<string, unknown>
      | undefined;
    const givenCacheControl = given
      ? Object.entries(given).find(([name]) => name.toLowerCase() === 'cache-control')
      : undefined;
    if (!givenCacheControl && !Array.isArray(given)) {
      const value = pageCacheControl({
        method: request.method,
        path: request.url ?? '/',
        hasSessionCookie,
        status,
        cacheControl: response.getHeader('cache-control'),
        setsCookie:
          response.hasHeader('set-cookie') ||
          Object.keys(given ?? {}).some((name) => name.toLowerCase() === 'set-cookie'),
      });
      if (value !== response.getHeader('cache-control') && typeof value === 'string') {
        response.setHeader('cache-control', value);
      }
    }
    return writeHead(status, ...rest);
  }) as typeof response.writeHead;
};
