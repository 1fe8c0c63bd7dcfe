import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
} from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { PLAN_LIMITS, type TRateLimits } from '../api-keys/api-key-plans';
import type { TCaller } from '../api-keys/caller';
import { AppError } from '../http/app-error';
import { IS_PUBLIC } from '../http/public.decorator';
import { LOGGER } from '../logging/logger';
import { rateLimitHeaders, retryAfterSeconds } from './rate-limit.headers';
import {
  RATE_LIMIT_SETTINGS,
  type TRateLimitSettings,
  type TRateLimitStore,
  type TWindowSpec,
} from './rate-limit.types';

/** Requests without a valid key are limited per client address with the Free plan's numbers. */
const ANONYMOUS_LIMITS = PLAN_LIMITS.free as TRateLimits;

export const limitsOf = (caller: TCaller | undefined): TRateLimits => {
  if (!caller) {
    return ANONYMOUS_LIMITS;
  }
  return (
    PLAN_LIMITS[caller.plan] ?? {
      perMinute: caller.rateLimitPerMinute ?? ANONYMOUS_LIMITS.perMinute,
      perDay: caller.rateLimitPerDay ?? ANONYMOUS_LIMITS.perDay,
    }
  );
};

/**
 * Section 8 of the spec on top of @nestjs/throttler: the module's two named throttlers (`minute`,
 * `day`) give the windows, our store counts a request against both in one atomic step, and every
 * response gets the rate-limit headers. Runs after AuthenticationGuard (to know the key) and
 * before RequireApiKeyGuard (so 401s are limited per address and carry the headers too).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly store: TRateLimitStore,
    reflector: Reflector,
    @Inject(RATE_LIMIT_SETTINGS) private readonly settings: TRateLimitSettings,
    @Inject(LOGGER) private readonly appLogger: Logger,
  ) {
    super(options, store, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.get<boolean>(IS_PUBLIC, context.getHandler())) {
      return true;
    }
    const http = context.switchToHttp();
    await this.limit(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
    return true;
  }

  /**
   * Counts the request, sets the headers on the reply, and throws the 429 when it is refused. Also
   * used by the exception filter for /v1 requests that never reached a route (unknown paths).
   */
  async limit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const caller = request.caller;
    const limits = limitsOf(caller);
    const windows: TWindowSpec[] = this.throttlers.map((throttler) => ({
      name: throttler.name as string,
      limit: throttler.name === 'day' ? limits.perDay : limits.perMinute,
      ttlMs: throttler.ttl as number,
    }));
    const tracker = caller ? `key:${caller.apiKeyId}` : `ip:${await this.getTracker(request)}`;
    const decision = await this.store.consume(tracker, windows, caller ? this.settings.ban : null);
    reply.headers(rateLimitHeaders(decision));

    if (decision.outcome === 'allowed') {
      return;
    }
    const retryAfter = retryAfterSeconds(decision);
    if (decision.outcome === 'banned') {
      if (decision.bannedNow) {
        this.appLogger.warn(
          {
            event: 'api_key_banned',
            apiKey: caller?.start,
            banSeconds: retryAfter,
            threshold: this.settings.ban.threshold,
          },
          'API key temporarily banned for sending while rate limited',
        );
      }
      throw new AppError(
        'api_key_banned',
        `This API key is temporarily banned for repeatedly sending requests while rate limited. Retry after ${retryAfter} seconds, then back off exponentially on 429.`,
      );
    }
    throw new AppError(
      'rate_limited',
      `Rate limit exceeded. Retry after ${retryAfter} seconds; back off exponentially if it happens again.`,
    );
  }
}
