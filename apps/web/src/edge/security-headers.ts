import { randomBytes } from 'node:crypto';

export const newNonce = (): string => randomBytes(16).toString('base64');

/**
 * The names a browser on the machine itself reaches a loopback address by. Not `[::1]`: a CSP
 * source cannot name an IPv6 address (Chromium ignores such a source, and says so).
 */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1'];

/**
 * The origins a browser may use for a configured address: its own origin, and for a loopback
 * address the same scheme and port under each loopback name. They are one server, and the product
 * names it both ways: `pnpm start` hands the site `API_URL=http://127.0.0.1:4000/v1` while the
 * API's photos default to `http://localhost:4000/media/...`.
 */
export const browserOrigins = (address: string): string[] => {
  const url = new URL(address);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) {
    return [url.origin];
  }
  const port = url.port === '' ? '' : `:${url.port}`;
  return LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${port}`);
};

/** What a page may load and post to besides the site itself, from the configured addresses. */
export type TPolicySources = {
  /** The photos' origins: MEDIA_BASE_URL's (default: the API's own `/media`). */
  images: string[];
  /** Where a form may be redirected on: the API (the portal's "Try it" opens its reference). */
  forms: string[];
};

/** The sources of the policy: one rule, derived from the site's configured addresses. */
export const policySources = (config: {
  apiUrl: string;
  mediaBaseUrl: string;
}): TPolicySources => ({
  images: browserOrigins(config.mediaBaseUrl),
  forms: browserOrigins(config.apiUrl),
});

/**
 * The Content-Security-Policy of every page: scripts only from the site with this response's nonce
 * (Next.js reads the nonce from the request's copy of the header and puts it on its own scripts),
 * styles from the site's files, images from the site, the photos' address (policySources) and
 * HTTPS stores, nothing framed, forms posted only to the site (and redirected on only to the API:
 * the developer portal's "Try it" answers its form with the API reference, and a browser checks a
 * form's redirects too). In development Next.js needs eval and its reload socket.
 */
export const contentSecurityPolicy = (
  nonce: string,
  options: { sources: TPolicySources; isDev: boolean },
): string =>
  [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.isDev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    // React writes `style` attributes (the drawings' tile colours, a photo's placeholder).
    "style-src-attr 'unsafe-inline'",
    `img-src 'self' data: blob: ${options.sources.images.join(' ')} https:`,
    "font-src 'self'",
    `connect-src 'self'${options.isDev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${options.sources.forms.join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');

/** HSTS for a site served over HTTPS: a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';
