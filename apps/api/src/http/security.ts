import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Header, IDEMPOTENCY_KEY_HEADER } from '@pets/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TConfig } from '../config';

/**
 * Response headers a browser script on an allowed origin may read: all of the contract's, but the
 * CORS headers themselves (the contract documents `Access-Control-Allow-Origin`; the browser
 * reads it, a script has no use for it).
 */
export const CORS_EXPOSED_HEADERS: string[] = Object.values(Header).filter(
  (name) => !name.startsWith('Access-Control-'),
);

/** What a cross-origin caller may send. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Request-Id',
  IDEMPOTENCY_KEY_HEADER,
  'If-None-Match',
  'If-Match',
];

/** HSTS for a year, sent only on responses to HTTPS requests (directly or through a trusted proxy). */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * Security headers for a JSON API, on every response (errors and 404s included), through Nest's
 * built-in `useSecurityHeaders()`: nothing may be loaded or framed (`default-src 'none'`,
 * `frame-ancestors 'none'`, `X-Frame-Options: DENY`), no MIME sniffing, no referrer, no
 * `X-Powered-By`. The /docs page sets a CSP of its own. CORS is off unless CORS_ORIGINS lists
 * origins; preflights are answered before authentication, so they need no key.
 */
export const applySecurity = (app: NestFastifyApplication, config: TConfig): void => {
  app.useSecurityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
    },
    // Only meaningful over HTTPS: see securityHeadersHook.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    xPoweredBy: true,
    // Headers for HTML pages in old browsers: nothing to protect in a JSON answer.
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });

  if (config.CORS_ORIGINS.length === 0) {
    return;
  }
  const allowed = new Set(config.CORS_ORIGINS);
  app.enableCors({
    // An origin that is not listed gets no CORS headers at all, and its preflight the same 405
    // (with the error body) as any OPTIONS request.
    origin: (origin, callback) => {
      callback(null, origin !== undefined && allowed.has(origin) ? origin : false);
    },
    // PATCH: updatePet; PUT and DELETE: reorderPetPhotos and deletePetPhoto.
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    // Otherwise an OPTIONS request without Access-Control-Request-Method gets a plain-text 400.
    strictPreflight: false,
  });
};

/**
 * Per-request security headers (an onRequest hook of app.ts): responses are never cached, since
 * they depend on the caller's key and carry its rate-limit state (the /docs scripts override
 * this); HSTS on HTTPS.
 */
export const securityHeadersHook = (request: FastifyRequest, reply: FastifyReply): void => {
  reply.header('cache-control', 'no-store');
  if (request.protocol === 'https') {
    reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  }
};
