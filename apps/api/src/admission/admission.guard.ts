import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { Header } from '@pets/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { ANONYMOUS_LIMITS, PLAN_LIMITS, type TRateLimits } from '../api-keys/api-key-plans';
import type { TCaller } from '../api-keys/caller';
import { CONFIG, PG_POOL } from '../app.tokens';
import { AuthService } from '../auth/auth.service';
import { refusal as failedAuthRefusal } from '../auth/failed-auth-budget';
import { callerOf, clientAddressOf } from '../auth/identity';
import type { TConfig } from '../config';
import { AppError } from '../core/app-error';
import { OPENAPI_PATH } from '../http/routes';
import { isV1Path, pathOf } from '../http/v1-gate';
import { LOGGER } from '../logging/logger';
import { rateLimitHeaders, retryAfterSeconds } from '../rate-limit/rate-limit.headers';
import {
  RATE_LIMIT_SETTINGS,
  RATE_LIMIT_STORE,
  type TRateLimitSettings,
  type TRateLimitStore,
  type TWindowSpec,
} from '../rate-limit/rate-limit.types';
import { checkBody } from './body-check';
import { permit } from './permission';
import { admissionRouteOf, type TAdmissionRoute } from './route';

/** The field of a plan's limits that each named throttler (window) takes. */
const PLAN_FIELD: Record<string, keyof TRateLimits> = { minute: 'perMinute', day: 'perDay' };

type TPlan = keyof typeof PLAN_LIMITS;

const fixed = (value: ThrottlerOptions['ttl'], what: string): number => {
  if (typeof value !== 'number') {
    throw new Error(`The rate-limit throttlers take a fixed ${what} (a number).`);
  }
  return value;
};

/** /v1 paths served without a key (counted per client address), whatever the method. */
const KEYLESS_PATHS = new Set([OPENAPI_PATH, `${OPENAPI_PATH}/`]);

/**
 * A CORS preflight: browsers never send credentials with one (Fetch standard), so it cannot be
 * answered 401; it gets the 405 of any OPTIONS request when CORS does not answer it first.
 */
const isPreflight = (request: FastifyRequest): boolean =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/**
 * The one admission of every request, and so the order of every /v1 answer: identify the caller,
 * count the request (429), check its permission (401, 403), then its body (413, 415, 400); only
 * then is it validated and served. The only global guard: Nest runs it for every routed request,
 * with the route's rules read once per handler (`admissionRouteOf`); the app's onRequest hook and
 * its error handlers run `admitUnrouted` for a /v1 request no handler serves (404, 405) or that
 * was refused before the guards (an unparseable Content-Type, a malformed path).
 *
 * The counting is section 8 of the spec on top of @nestjs/throttler. What it takes from ThrottlerGuard:
 * - the module's named throttlers (`minute`, `day`: their ttl, and as their limit the numbers of
 *   requests without a valid key), sorted and named by the base's `onModuleInit`;
 * - the tracker of requests without a valid key: the client address, IPv6 grouped by subnet
 *   (`getTracker`'s rule, applied to the address AuthService.identify decided, `clientAddressOf`,
 *   without its await); a key's requests are tracked by the key, and a first-party key's by the
 *   key and the visitor it vouched for (docs/decisions.md, "The site as a first-party client").
 *
 * What it replaces, and why:
 * - `canActivate`'s loop over the throttlers, which calls `handleRequest` and thus
 *   `storage.increment` once per throttler: the minute would count a request that the day then
 *   refuses, and two windows would cost two store round trips. Our store (`consume`) checks both
 *   windows and counts the request in both, only if both admit it, in one atomic step. The base's
 *   storage (ThrottlerModule's default) is therefore never called, and `generateKey` (a key per
 *   route and throttler) is not used: a caller's budget is shared by every route.
 * - `shouldSkip`: it is async (one more await on every request); the @Access rule, read
 *   synchronously, says which handlers are not limited (`public`).
 * - `throwThrottlingException`: a refusal is the spec's error body, `rate_limited` or
 *   `api_key_banned` as the store decided (a ThrottlerLimitDetail cannot tell them apart), and is
 *   also thrown for unknown /v1 routes, where there is no ExecutionContext.
 *
 * The count comes after identification (to know the key) and before the permission (so 401s are
 * limited per address and carry the headers too).
 */
@Injectable()
export class AdmissionGuard extends ThrottlerGuard {
  /** Built once from the throttlers: no window list is allocated per request (but Enterprise's). */
  private anonymousWindows: readonly TWindowSpec[] = [];
  private planWindows: Partial<Record<TPlan, readonly TWindowSpec[]>> = {};
  /**
   * Per caller (the key cache's object, the same for every request of a key until it is read
   * again): its tracker and an Enterprise key's own windows, built on its first request. The
   * store keeps its script's arguments while these stay the same objects.
   */
  private readonly callers = new WeakMap<
    TCaller,
    { tracker: string; windows: readonly TWindowSpec[] }
  >();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() unusedStorage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(RATE_LIMIT_STORE) private readonly store: TRateLimitStore,
    @Inject(RATE_LIMIT_SETTINGS) private readonly settings: TRateLimitSettings,
    @Inject(LOGGER) private readonly appLogger: Logger,
    private readonly auth: AuthService,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CONFIG) config: TConfig,
  ) {
    super(options, unusedStorage, reflector);
    this.isProduction = config.APP_ENV === 'production';
  }

  /** Production: test-mode keys may read there but not change the store (`permit`). */
  private readonly isProduction: boolean;

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.anonymousWindows = this.throttlers.map((throttler) => ({
      name: throttler.name ?? 'default',
      limit: fixed(throttler.limit, 'limit'),
      ttlMs: fixed(throttler.ttl, 'ttl'),
    }));
    for (const [plan, limits] of Object.entries(PLAN_LIMITS) as [TPlan, TRateLimits | null][]) {
      if (limits) {
        this.planWindows[plan] = this.windowsWith(limits);
      }
    }
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await this.admit(
      http.getRequest<FastifyRequest>(),
      http.getResponse<FastifyReply>(),
      admissionRouteOf(this.reflector, context),
    );
    return true;
  }

  /** Admits a request to a handler, or throws the answer it gets instead. */
  async admit(request: FastifyRequest, reply: FastifyReply, route: TAdmissionRoute): Promise<void> {
    if (route.access !== 'public') {
      if (route.access === 'key') {
        await this.auth.identify(request);
      }
      await this.limit(request, reply);
      if (route.access === 'key') {
        await permit(route, request, this.pool, this.isProduction);
      }
    }
    await checkBody(route, request);
  }

  /**
   * Admits a /v1 request that no handler serves (no route matched, the router refused the path,
   * or Fastify refused the request before the guards): identified, counted, and its 401 thrown
   * when it has no valid key; its own answer (404, 405, 400, 415) comes after. Does nothing
   * outside /v1, and nothing for a request already counted (its reply carries the rate-limit
   * headers): calling it twice is safe.
   */
  async admitUnrouted(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const path = pathOf(request.url);
    if (!isV1Path(path) || reply.hasHeader(Header.rateLimitLimit)) {
      return;
    }
    const isKeyless = KEYLESS_PATHS.has(path);
    const identity = isKeyless ? null : (request.identity ?? (await this.auth.identify(request)));
    await this.limit(request, reply);
    if (identity?.error && !isPreflight(request)) {
      throw identity.error;
    }
  }

  /** Counts the request, sets the headers on the reply, and throws the 429 when it is refused. */
  private async limit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const caller = callerOf(request);
    const known = caller ? this.knownCaller(caller) : null;
    const windows = known?.windows ?? this.anonymousWindows;
    // The site's key for one of its visitors: the key's numbers, per visitor, so that one visitor
    // spending them never refuses another. No ban there: its 429s name a visitor, not the key.
    const visitor = caller?.firstParty ? request.clientAddress : null;
    let tracker: string;
    if (!caller || !known) {
      tracker = `ip:${normalizeIp(clientAddressOf(request), this.ipv6SubnetPrefix)}`;
    } else if (visitor === null) {
      tracker = known.tracker;
    } else {
      tracker = `${known.tracker}:ip:${normalizeIp(visitor, this.ipv6SubnetPrefix)}`;
    }
    const decision = await this.store.consume(
      tracker,
      windows,
      caller && visitor === null ? this.settings.ban : null,
      request.authBudget,
    );
    if (decision.outcome === 'precluded') {
      // The address's failed-authentication budget, checked here for a key known valid from the
      // cache (AuthService.identify): its 429, as if identify had refused it, nothing counted.
      throw failedAuthRefusal(decision.state);
    }
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

  /** A caller's tracker and windows (see `callers`), built on its first request. */
  private knownCaller(caller: TCaller): { tracker: string; windows: readonly TWindowSpec[] } {
    let known = this.callers.get(caller);
    if (!known) {
      known = { tracker: `key:${caller.apiKeyId}`, windows: this.windowsOf(caller) };
      this.callers.set(caller, known);
    }
    return known;
  }

  /** A key's plan sets its numbers; Enterprise keys carry their own (else the Free numbers). */
  private windowsOf(caller: TCaller): readonly TWindowSpec[] {
    return (
      this.planWindows[caller.plan] ??
      this.windowsWith({
        perMinute: caller.rateLimitPerMinute ?? ANONYMOUS_LIMITS.perMinute,
        perDay: caller.rateLimitPerDay ?? ANONYMOUS_LIMITS.perDay,
      })
    );
  }

  private windowsWith(limits: TRateLimits): readonly TWindowSpec[] {
    return this.anonymousWindows.map((window) => {
      const field = PLAN_FIELD[window.name];
      if (field === undefined) {
        throw new Error(`No plan limit for the "${window.name}" window.`);
      }
      return { ...window, limit: limits[field] };
    });
  }
}
