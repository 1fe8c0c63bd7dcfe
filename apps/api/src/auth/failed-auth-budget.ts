import { Inject, Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { TConfig } from '../config';
import { AppError } from '../core/app-error';
import { LOGGER } from '../logging/logger';
import { rateLimitHeaders, retryAfterSeconds } from '../rate-limit/rate-limit.headers';
import {
  RATE_LIMIT_STORE,
  type TDecision,
  type TPrecondition,
  type TRateLimitStore,
  type TWindowSpec,
  type TWindowState,
} from '../rate-limit/rate-limit.types';
import { clientAddressOf } from './identity';

/** At most `limit` failed authentications per client address per `windowMs`. */
export type TFailedAuthPolicy = { limit: number; windowMs: number };

/**
 * The budget of config.ts (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_SECONDS: by default 60 per
 * 10 minutes, the window starting with the first failure; see docs/decisions.md).
 */
export const failedAuthPolicyOf = (
  config: Pick<TConfig, 'AUTH_FAILURE_LIMIT' | 'AUTH_FAILURE_WINDOW_SECONDS'>,
): TFailedAuthPolicy => ({
  limit: config.AUTH_FAILURE_LIMIT,
  windowMs: config.AUTH_FAILURE_WINDOW_SECONDS * 1000,
});

export const FAILED_AUTH_POLICY = Symbol('FAILED_AUTH_POLICY');

/** The window's name: in the Redis key, and the policy name of the RateLimit-* headers. */
const WINDOW_NAME = 'auth_failures';

/**
 * The failed-authentication budget of a client address (docs/errors.md, "Failed authentications"):
 * every request that presents credentials asks it before any key lookup, and each failure counts.
 * An address over budget gets 429 `rate_limited` for any credentials, a valid key included, until
 * its window ends (as GitHub does after too many failed logins); requests with no Authorization
 * header at all are not concerned. Kept in the rate-limit store, so shared by every instance when
 * Redis is configured.
 *
 * The check and the count are two steps: requests of one address already in flight when its budget
 * runs out may each still be looked up (and counted) once.
 */
@Injectable()
export class FailedAuthBudget {
  private readonly window: TWindowSpec;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: TRateLimitStore,
    @Inject(FAILED_AUTH_POLICY) policy: TFailedAuthPolicy,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.window = { name: WINDOW_NAME, limit: policy.limit, ttlMs: policy.windowMs };
  }

  /**
   * The address's tracker: the same client address as the per-address rate limit (IPv6 grouped by
   * /64, as @nestjs/throttler does), in a namespace of its own. For the first-party site, the
   * visitor's address it vouched for (`clientAddressOf`).
   */
  trackerOf(request: FastifyRequest): string {
    return trackerOfAddress(clientAddressOf(request));
  }

  /** The tracker of the connection's own address, whatever visitor it speaks for. */
  socketTrackerOf(request: FastifyRequest): string {
    return trackerOfAddress(request.ip);
  }

  /** Throws the 429 when the address has no failed authentication left; counts nothing. */
  async assertMayTry(tracker: string): Promise<void> {
    const state = await this.store.peekWindow(tracker, this.window);
    if (state.used >= state.limit) {
      throw refusal(state);
    }
  }

  /**
   * The same check as `assertMayTry`, for the rate limiter to make in its own round trip (a key
   * already known valid from the cache needs no lookup to protect): the store answers `precluded`
   * with the window's state, which `refusal` turns into the same 429.
   */
  preconditionOf(tracker: string): TPrecondition {
    return { tracker, window: this.window };
  }

  /** Counts a failed authentication; logs (once per window) the one that exhausts the budget. */
  async fail(request: FastifyRequest, tracker: string): Promise<void> {
    const state = await this.store.countInWindow(tracker, this.window);
    if (state.used === state.limit) {
      this.logger.warn(
        {
          event: 'auth_failures_exceeded',
          ip: clientAddressOf(request),
          limit: state.limit,
          blockSeconds: Math.ceil(state.resetInMs / 1000),
        },
        'client address refused for too many failed authentications',
      );
    }
  }
}

const trackerOfAddress = (address: string): string => `authfail:${normalizeIp(address)}`;

/**
 * The 429: its headers describe the failed-authentication budget (the one that refused), so
 * X-RateLimit-Reset and Retry-After name the moment the address may try again.
 */
export const refusal = (state: TWindowState): AppError => {
  const decision: TDecision = { outcome: 'limited', windows: [state] };
  return new AppError(
    'rate_limited',
    `Too many failed authentications from this address. Retry after ${retryAfterSeconds(decision)} seconds, with a valid key.`,
    undefined,
    rateLimitHeaders(decision),
  );
};
