import { API_PATH_PREFIX, Header } from '@pets/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/auth.service';
import { OPENAPI_PATH } from '../modules/docs/docs-page';
import type { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/** The path of a request target, without its query. */
export const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** Whether a path is under the versioned API: `/v1`, `/v1/` and everything below. */
export const isV1Path = (path: string): boolean =>
  path === API_PATH_PREFIX || path.startsWith(`${API_PATH_PREFIX}/`);

/** /v1 paths served without a key (counted per client address), whatever the method. */
const KEYLESS_PATHS = new Set([OPENAPI_PATH, `${OPENAPI_PATH}/`]);

/**
 * A CORS preflight: browsers never send credentials with one (Fetch standard), so it cannot be
 * answered 401; it gets the 405 of any OPTIONS request when CORS does not answer it first.
 */
const isPreflight = (request: FastifyRequest): boolean =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

export type TV1Gate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** See createV1Gate. */
    admitV1: TV1Gate;
  }
}

/**
 * The order of every /v1 answer (401, then 429, then what the request itself is wrong about) for
 * requests the guards never see: no route matched (404, 405), the router refused the path, or
 * Fastify refused the request before the handler (an unparseable Content-Type, a missing Host).
 * Identifies the request with the one `identify`, counts it (the 429 is thrown, the headers are
 * set), and throws its 401 when it has no valid key. Does nothing outside /v1, and nothing for a
 * request already counted (its reply carries the rate-limit headers): calling it twice is safe.
 */
export const createV1Gate =
  (auth: AuthService, rateLimit: RateLimitGuard): TV1Gate =>
  async (request, reply) => {
    const path = pathOf(request.url);
    if (!isV1Path(path) || reply.hasHeader(Header.rateLimitLimit)) {
      return;
    }
    const isKeyless = KEYLESS_PATHS.has(path);
    const identity = isKeyless ? null : (request.identity ?? (await auth.identify(request)));
    await rateLimit.limit(request, reply);
    if (identity?.error && !isPreflight(request)) {
      throw identity.error;
    }
  };

/** Makes the gate reachable from the exception filter and Fastify's framework-error handler. */
export const registerV1Gate = (fastify: FastifyInstance, gate: TV1Gate): void => {
  fastify.decorate('admitV1', gate);
};
