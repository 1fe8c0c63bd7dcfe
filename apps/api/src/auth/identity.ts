import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TCaller } from '../api-keys/caller';
import type { AppError } from '../http/app-error';
import type { TPrecondition } from '../rate-limit/rate-limit.types';

/**
 * What `identify` found out about a request: the caller of a valid key, or the 401 to answer when
 * there is none. Both fields are always present (one object shape for V8); the identity of a valid
 * key is built once per key-cache load, not per request.
 */
export type TIdentity =
  | { readonly caller: TCaller; readonly error: null }
  | { readonly caller: null; readonly error: AppError };

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request's identity: written only by AuthService.identify, read through `callerOf` and
     * the guards. `null` until then, and for routes that identify nobody (@Access('public'),
     * @Access('keyless')).
     */
    identity: TIdentity | null;
    /**
     * The client address's failed-authentication budget when `identify` left its check to the
     * rate limiter (a valid key from the cache: the check rides on the limiter's round trip);
     * RateLimitGuard.limit makes it before counting anything. `null` otherwise.
     */
    authBudget: TPrecondition | null;
  }
}

/**
 * Declares the per-request identity slot. A Fastify request decoration rather than a property added
 * on the fly: every request object keeps one shape, and nothing is allocated to hold the slot.
 */
export const registerRequestIdentity = (fastify: FastifyInstance): void => {
  fastify.decorateRequest('identity', null);
  fastify.decorateRequest('authBudget', null);
};

/** The caller of a request with a valid key, or null. */
export const callerOf = (request: FastifyRequest): TCaller | null =>
  request.identity?.caller ?? null;
