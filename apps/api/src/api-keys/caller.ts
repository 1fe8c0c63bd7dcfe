import type { TApiKeyEnvironment } from './api-key-format';

export type TPlan = 'free' | 'pro' | 'business' | 'enterprise';

/** The authenticated caller of a request: what the handlers and the rate limiter need. */
export type TCaller = {
  apiKeyId: bigint;
  /** Display start of the key (e.g. pets_live_3xK9), the only form of a key that is ever logged. */
  start: string;
  plan: TPlan;
  environment: TApiKeyEnvironment;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
};

/** A stored key as the server reads it, found by the SHA-256 of the presented key. */
export type TStoredApiKey = TCaller & { hash: string; revokedAt: Date | null };

export type TApiKeyLookup = (hash: string) => Promise<TStoredApiKey | null>;
export const API_KEY_LOOKUP = Symbol('API_KEY_LOOKUP');

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by AuthenticationGuard when the request carries a valid key. */
    caller?: TCaller;
    /** Set by AuthenticationGuard when it does not; RequireApiKeyGuard answers 401 with it. */
    authError?: import('../http/app-error').AppError;
  }
}
