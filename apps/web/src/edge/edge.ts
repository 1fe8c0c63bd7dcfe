import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { STORE_DEFAULTS } from '@pets/contract/store';
import type { TWebConfig } from '../config';
import { sameSitePath } from '../lib/return-path';
import { cachePublicPages } from './cache-control';
import { VisitorLimiter } from './limiter';
import {
  crossSitePostPage,
  refusedAddressPage,
  type TEdgePageStore,
  tooManyRequestsPage,
} from './pages';
import { PATH_HEADER, VISITOR_HEADER } from './request-headers';
import { isRefusedSpelling, servedPathOf } from './request-path';
import {
  contentSecurityPolicy,
  newNonce,
  policySources,
  STRICT_TRANSPORT_SECURITY,
  type TPolicySources,
} from './security-headers';
import { type TTrust, trustOf, visitorAddressOf } from './visitor';
import { visitorKeyOf } from './visitor-key';

/**
 * The site's edge: the one HTTP server in front of Next.js (server.ts starts it). Next.js cannot
 * see a request's socket, so this is where the visitor is decided (visitor.ts), per-visitor limits
 * are counted before any rendering, forms from other sites are refused, and the security headers
 * with a fresh CSP nonce are set, and a public page's Cache-Control is relaxed from Next.js's
 * `no-store` (cache-control.ts); then Next.js handles the request.
 */
/**
 * Reads that cost nothing to serve (build assets, the health check): never counted. Decided on
 * the path Next.js will serve (request-path.ts), and never for a form post.
 */
const isFree = (method: string | undefined, servedPath: string): boolean =>
  (method === 'GET' || method === 'HEAD') &&
  (servedPath.startsWith('/_next/') ||
    servedPath === '/healthz' ||
    servedPath === '/icon.svg' ||
    servedPath === '/favicon.ico');

/** Request headers only the edge may set: whatever a client sent in them is dropped. */
const EDGE_HEADERS = [VISITOR_HEADER, PATH_HEADER, 'content-security-policy', 'x-forwarded-host'];

type TEdge = {
  config: TWebConfig;
  trust: TTrust;
  limiter: VisitorLimiter;
  sources: TPolicySources;
  isDev: boolean;
  store: TEdgePageStore;
};

export type TNextHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Form posts without an Origin header (scripts, not browsers): logged at most once a minute. */
const originless = { count: 0, loggedAt: 0 };
const noteOriginless = () => {
  originless.count += 1;
  const now = Date.now();
  if (now - originless.loggedAt >= 60_000) {
    console.warn(
      `[web] ${originless.count} form ${originless.count === 1 ? 'post' : 'posts'} without an Origin header since the last note (scripts, not browsers); accepted, as Next.js does.`,
    );
    originless.loggedAt = now;
    originless.count = 0;
  }
};

const send = (
  response: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string>,
) => {
  response.writeHead(status, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(html);
};

/** The origin form posts must come from: SITE_URL's, else the request's own host. */
const siteOriginOf = (edge: TEdge, request: IncomingMessage): string =>
  edge.config.siteOrigin ?? `http://${request.headers.host ?? 'localhost'}`;

const handleAtEdge = async (
  edge: TEdge,
  request: IncomingMessage,
  response: ServerResponse,
  handle: TNextHandler,
): Promise<void> => {
  const visitor = visitorAddressOf(request, edge.trust);
  const path = request.url ?? '/';
  for (const name of EDGE_HEADERS) {
    delete request.headers[name];
  }
  request.headers[VISITOR_HEADER] = visitor;
  request.headers[PATH_HEADER] = path;
  // Next.js keeps a client's X-Forwarded-For; from here on it names the visitor the edge decided.
  request.headers['x-forwarded-for'] = visitor;
  request.headers['x-forwarded-proto'] = edge.config.isHttps ? 'https' : 'http';
  if (edge.config.siteOrigin) {
    request.headers['x-forwarded-host'] = new URL(edge.config.siteOrigin).host;
  }

  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, { sources: edge.sources, isDev: edge.isDev });
  request.headers['content-security-policy'] = policy;
  const headers: Record<string, string> = { 'Content-Security-Policy': policy };
  if (edge.config.isHttps) {
    headers['Strict-Transport-Security'] = STRICT_TRANSPORT_SECURITY;
  }
  for (const [name, value] of Object.entries(headers)) {
    response.setHeader(name, value);
  }

  // A spelling that names another path than it seems to is refused below, but only after the
  // same checks as the path it names: from another site it is the same 403, and it counts
  // against the visitor as a page or a form does.
  const isRefused = isRefusedSpelling(path);
  if (isRefused || !isFree(request.method, servedPathOf(path))) {
    const isPost = request.method === 'POST';
    if (isPost) {
      const origin = request.headers.origin;
      const siteOrigin = siteOriginOf(edge, request);
      if (origin === undefined) {
        noteOriginless();
        request.headers.origin = siteOrigin;
      } else if (origin !== siteOrigin) {
        send(response, 403, crossSitePostPage(edge.store, nonce), headers);
        return;
      }
    }
    const verdict = await edge.limiter.consume(isPost ? 'form' : 'page', visitorKeyOf(visitor));
    if (!verdict.ok) {
      send(
        response,
        429,
        tooManyRequestsPage(
          edge.store,
          nonce,
          verdict.retryAfterSeconds,
          isPost ? '/' : (sameSitePath(path) ?? '/'),
        ),
        {
          ...headers,
          'Retry-After': String(verdict.retryAfterSeconds),
        },
      );
      return;
    }
  }
  if (isRefused) {
    send(response, 400, refusedAddressPage(edge.store, nonce), headers);
    return;
  }
  cachePublicPages(request, response);
  await handle(request, response);
};

/** The edge's HTTP server in front of `handle` (Next.js; a stand-in in the edge's own tests). */
export const createEdgeServer = (
  config: TWebConfig,
  handle: TNextHandler,
  isDev = false,
  store: TEdgePageStore = STORE_DEFAULTS,
) => {
  const edge: TEdge = {
    config,
    trust: trustOf(config.trustedProxies),
    limiter: new VisitorLimiter(config.limits, config),
    sources: policySources(config),
    isDev,
    store,
  };
  return createServer((request, response) => {
    handleAtEdge(edge, request, response, handle).catch((error: unknown) => {
      console.error('[web] the edge failed to handle a request:', error);
      if (!response.headersSent) {
        response.statusCode = 500;
      }
      response.end();
    });
  });
};
