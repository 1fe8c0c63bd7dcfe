import { randomBytes } from 'node:crypto';

/**
 * The Content-Security-Policy of every page: scripts only from the site with this response's nonce
 * (Next.js reads the nonce from the request's copy of the header and puts it on its own scripts),
 * styles from the site's files, images from the site, the API's media and HTTPS stores, nothing
 * framed, forms posted only to the site (and redirected on only to the API: the developer portal's
 * "Try it" answers its form with the API reference, and a browser checks a form's redirects too).
 * In development Next.js needs eval and its reload socket.
 */
export const newNonce = (): string => randomBytes(16).toString('base64');

export const contentSecurityPolicy = (
  nonce: string,
  options: { apiOrigin: string; isDev: boolean },
): string =>
  [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.isDev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    // React writes `style` attributes (the drawings' tile colours, a photo's placeholder).
    "style-src-attr 'unsafe-inline'",
    `img-src 'self' data: blob: ${options.apiOrigin} https:`,
    "font-src 'self'",
    `connect-src 'self'${options.isDev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${options.apiOrigin}`,
    "frame-ancestors 'none'",
  ].join('; ');

/** HSTS for a site served over HTTPS: a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';
