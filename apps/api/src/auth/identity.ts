import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TCaller, TIdentity } from '../api-keys/caller';
import type { TPrecondition } from '../rate-limit/rate-limit.types';

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
     * the admission's rate limit makes it before counting anything. `null` otherwise.
     */
    authBudget: TPrecondition | null;
    /**
     * The visitor's address when a first-party key vouched for it (`Pets-Visitor-IP`: the store's
     * site telling the API who its visitor is), written only by AuthService.identify, once; `null`
     * otherwise, and then the client is `request.ip` (the socket's peer, or what the trusted
     * proxies said: TRUSTED_PROXIES). Read through `clientAddressOf`.
     */
    clientAddress: string | null;
    /**
     * Whether the site's own first-party key came beside the bearer (`Pets-First-Party-Key`, valid):
     * the only way a person's session credential is accepted. Written only by AuthService.identify.
     */
    isSiteVouched: boolean;
  }
}

/**
 * Declares the per-request identity slot. A Fastify request decoration rather than a property added
 * on the fly: every request object keeps one shape, and nothing is allocated to hold the slot.
 */
export const registerRequestIdentity = (fastify: FastifyInstance): void => {
  fastify.decorateRequest('identity', null);
  fastify.decorateRequest('authBudget', null);
  fastify.decorateRequest('clientAddress', null);
  fastify.decorateRequest('isSiteVouched', false);
};

/**
 * The client's address, for everything that counts or logs per client (the failed-authentication
 * budget, the limits of requests without a valid key, the access log): the visitor's address a
 * first-party key vouched for, else the connection's (as the trusted proxies told it).
 */
export const clientAddressOf = (request: FastifyRequest): string =>
  request.clientAddress ?? request.ip;

/** The caller of a request with a valid key, or null. */
export const callerOf = (request: FastifyRequest): TCaller | null =>
  request.identity?.caller ?? null;
