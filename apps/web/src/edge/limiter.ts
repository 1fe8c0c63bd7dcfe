import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { TLimitName, TVisitorLimits } from './visitor-limits';

/**
 * Enforces visitor-limits.ts with rate-limiter-flexible (a well-kept limiter with atomic Redis and
 * memory stores, rather than one of ours): `consume` counts before the work is done, so a hundred
 * simultaneous posts cannot all pass a check made before any of them is counted. With Redis every
 * instance of the site shares the counts; while Redis is unreachable each instance falls back to
 * its own memory (the insurance limiter), as the API does.
 */
export type TVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export type TLimiterStore = { redisUrl: string | undefined; redisKeyPrefix: string };

let redis: Redis | undefined;

/** One Redis connection per process (limits and sessions), made on first use. */
export const sharedRedis = (store: TLimiterStore): Redis | undefined => {
  if (!store.redisUrl) {
    return undefined;
  }
  if (!redis) {
    redis = new Redis(store.redisUrl, {
      // A command waits for nothing while Redis is away: the memory fallback answers instead.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
    });
    redis.on('error', (error: Error) => {
      logRedisTrouble(error);
    });
  }
  return redis;
};

let lastRedisWarning = 0;
const logRedisTrouble = (error: Error) => {
  const now = Date.now();
  if (now - lastRedisWarning > 60_000) {
    lastRedisWarning = now;
    console.warn(`[web] Redis unavailable (${error.message}); limits are per instance meanwhile.`);
  }
};

/** Resolves once Redis answers (or after `timeoutMs`): limits are shared from the first request. */
export const sharedRedisReady = async (store: TLimiterStore, timeoutMs = 3_000): Promise<void> => {
  const client = sharedRedis(store);
  if (!client || client.status === 'ready') {
    return;
  }
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
};

export const closeSharedRedis = async (): Promise<void> => {
  await redis?.quit().catch(() => undefined);
  redis = undefined;
};

const secondsOf = (result: RateLimiterRes): number =>
  Math.max(1, Math.ceil(result.msBeforeNext / 1000));

export class VisitorLimiter {
  private readonly limiters = new Map<TLimitName, RateLimiterAbstract>();

  constructor(
    private readonly limits: TVisitorLimits,
    private readonly store: TLimiterStore,
  ) {}

  private limiter(name: TLimitName): RateLimiterAbstract {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const { points, seconds } = this.limits[name];
      const memory = new RateLimiterMemory({ points, duration: seconds, keyPrefix: name });
      const client = sharedRedis(this.store);
      limiter = client
        ? new RateLimiterRedis({
            storeClient: client,
            points,
            duration: seconds,
            keyPrefix: `${this.store.redisKeyPrefix}limit:${name}`,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          })
        : memory;
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Counts `points` for `key` now; refused (nothing more counted) once the window is spent. */
  async consume(name: TLimitName, key: string, points = 1): Promise<TVerdict> {
    try {
      await this.limiter(name).consume(key, points);
      return { ok: true };
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        return { ok: false, retryAfterSeconds: secondsOf(error) };
      }
      // Neither store answered: let the visitor through rather than take the site down.
      logRedisTrouble(error instanceof Error ? error : new Error(String(error)));
      return { ok: true };
    }
  }

  /** Gives back what `consume` took, when the work turned out not to count (a key accepted). */
  async reward(name: TLimitName, key: string, points = 1): Promise<void> {
    await this.limiter(name)
      .reward(key, points)
      .catch(() => undefined);
  }

  /** Whether `key` has any left in its window, counting nothing. */
  async peek(name: TLimitName, key: string): Promise<TVerdict> {
    try {
      const result = await this.limiter(name).get(key);
      return result && result.consumedPoints >= this.limits[name].points
        ? { ok: false, retryAfterSeconds: secondsOf(result) }
        : { ok: true };
    } catch {
      return { ok: true };
    }
  }

  /** How many `key` has used in its current window (0 when none). */
  async used(name: TLimitName, key: string): Promise<number> {
    try {
      const result = await this.limiter(name).get(key);
      return result?.consumedPoints ?? 0;
    } catch {
      return 0;
    }
  }
}
