import Redis from 'ioredis';
import type { Logger } from 'pino';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import {
  type TBanPolicy,
  type TDecision,
  type TRateLimitStore,
  type TWindowSpec,
  type TWindowState,
} from './rate-limit.types';

/**
 * Every window of a tracker checked and counted in one round trip, atomically (Redis runs a script
 * alone), so any number of API instances share one exact budget per key.
 *
 * KEYS: the n window counters, then the strike counter and the ban flag.
 * ARGV: n, the n limits, the n window lengths (ms), ban threshold (0: no ban), strike window, ban length.
 * Returns: outcome (1 allowed, 0 limited, 2 banned), ban ms left (or -1), banned-now flag, then
 * used and ms-to-reset for each window.
 */
const CONSUME_SCRIPT = `
local n = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2 + 2 * n])
local strikeWindow = tonumber(ARGV[3 + 2 * n])
local banMs = tonumber(ARGV[4 + 2 * n])
local strikesKey = KEYS[n + 1]
local banKey = KEYS[n + 2]
local used = {}
local ttls = {}
for i = 1, n do
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl > 0 then
    used[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
    ttls[i] = ttl
  else
    used[i] = 0
    ttls[i] = tonumber(ARGV[1 + n + i])
  end
end
local function reply(outcome, banLeft, bannedNow)
  local out = { outcome, banLeft, bannedNow }
  for i = 1, n do
    out[#out + 1] = used[i]
    out[#out + 1] = ttls[i]
  end
  return out
end
if threshold > 0 then
  local banLeft = redis.call('PTTL', banKey)
  if banLeft > 0 then
    return reply(2, banLeft, 0)
  end
end
for i = 1, n do
  if used[i] >= tonumber(ARGV[1 + i]) then
    if threshold > 0 then
      local strikes = redis.call('INCR', strikesKey)
      if strikes == 1 then
        redis.call('PEXPIRE', strikesKey, strikeWindow)
      end
      if strikes > threshold then
        redis.call('DEL', strikesKey)
        redis.call('SET', banKey, '1', 'PX', banMs)
        return reply(2, banMs, 1)
      end
    end
    return reply(0, -1, 0)
  end
end
for i = 1, n do
  used[i] = redis.call('INCR', KEYS[i])
  if used[i] == 1 then
    redis.call('PEXPIRE', KEYS[i], ttls[i])
  end
end
return reply(1, -1, 0)
`;

/**
 * The failed-authentication budget's two operations on one window counter (KEYS[1]; ARGV[1]: the
 * window's length in ms). Both return { used, ms to reset }. PEEK counts nothing; COUNT adds one,
 * starting the window (its expiry) with the first.
 */
const PEEK_WINDOW_SCRIPT = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  return { tonumber(redis.call('GET', KEYS[1]) or '0'), ttl }
end
return { 0, tonumber(ARGV[1]) }
`;
const COUNT_WINDOW_SCRIPT = `
local used = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return { used, ttl }
`;

type TRedisWithScript = Redis & {
  consumeRateLimit(numberOfKeys: number, ...args: (string | number)[]): Promise<number[]>;
  peekWindow(key: string, windowMs: number): Promise<number[]>;
  countInWindow(key: string, windowMs: number): Promise<number[]>;
};

/**
 * Redis when it answers; this process's memory when it does not. Requests keep being served
 * through an outage (with per-process limits, which the logs and readiness report), and the store
 * goes back to Redis by itself once it reconnects.
 */
export class RedisRateLimitStore implements TRateLimitStore {
  private readonly redis: TRedisWithScript;
  private readonly fallback = new MemoryRateLimitStore();
  private usingFallback = false;

  constructor(
    url: string,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
  ) {
    this.redis = new Redis(url, {
      // Fail fast instead of queueing while disconnected: the fallback answers meanwhile.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      commandTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(attempt * 250, 5_000),
      // Under load, the counts of the requests that arrive together go out in one write (one
      // system call instead of one per request); each script still runs alone and atomically.
      enableAutoPipelining: true,
    }) as TRedisWithScript;
    this.redis.defineCommand('consumeRateLimit', { lua: CONSUME_SCRIPT });
    this.redis.defineCommand('peekWindow', { numberOfKeys: 1, lua: PEEK_WINDOW_SCRIPT });
    this.redis.defineCommand('countInWindow', { numberOfKeys: 1, lua: COUNT_WINDOW_SCRIPT });
    this.redis.on('ready', () => {
      if (this.usingFallback) {
        this.usingFallback = false;
        this.logger.warn(
          { event: 'rate_limit_backend', backend: 'redis' },
          'Redis is back: rate limits are shared again',
        );
      }
    });
    this.redis.on('error', () => {
      // Reported through the fallback switch below; ioredis reconnects by itself.
    });
  }

  /** Waits (briefly) for the first connection, so startup does not begin on the fallback. */
  async connect(timeoutMs = 2_000): Promise<boolean> {
    if (this.redis.status === 'ready') {
      return true;
    }
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) {
      this.switchToFallback('no connection at startup');
    }
    return ready;
  }

  async consume(
    tracker: string,
    windows: readonly TWindowSpec[],
    ban: TBanPolicy | null,
  ): Promise<TDecision> {
    if (this.redis.status !== 'ready') {
      this.switchToFallback('not connected');
      return this.fallback.consume(tracker, windows, ban);
    }
    const base = `${this.keyPrefix}{${tracker}}`;
    const keys = [
      ...windows.map((window) => `${base}:${window.name}`),
      `${base}:strikes`,
      `${base}:ban`,
    ];
    const args = [
      windows.length,
      ...windows.map((window) => window.limit),
      ...windows.map((window) => window.ttlMs),
      ban?.threshold ?? 0,
      ban?.strikeWindowMs ?? 0,
      ban?.banMs ?? 0,
    ];
    let reply: number[];
    try {
      reply = await this.redis.consumeRateLimit(keys.length, ...keys, ...args);
    } catch (error) {
      this.switchToFallback(error instanceof Error ? error.message : String(error));
      return this.fallback.consume(tracker, windows, ban);
    }
    const [outcome, banLeft, bannedNow] = reply;
    const states: TWindowState[] = windows.map((window, index) => ({
      ...window,
      used: reply[3 + 2 * index] ?? 0,
      resetInMs: reply[4 + 2 * index] ?? window.ttlMs,
    }));
    if (outcome === 2) {
      return {
        outcome: 'banned',
        windows: states,
        banEndsInMs: banLeft ?? 0,
        bannedNow: bannedNow === 1,
      };
    }
    return { outcome: outcome === 1 ? 'allowed' : 'limited', windows: states };
  }

  describe() {
    return this.usingFallback || this.redis.status !== 'ready'
      ? { backend: 'memory (redis unavailable)', degraded: true }
      : { backend: 'redis', degraded: false };
  }

  async close(): Promise<void> {
    await this.fallback.close();
    this.redis.disconnect();
  }

  private switchToFallback(reason: string): void {
    if (!this.usingFallback) {
      this.usingFallback = true;
      this.logger.error(
        { event: 'rate_limit_backend', backend: 'memory', reason },
        'Redis unavailable: rate limits are per process until it is back',
      );
    }
  }

  // The failed-authentication budget's two operations (see TRateLimitStore): one counter per
  // window, in the tracker's hash slot like consume's, and the same fallback when Redis fails.

  async peekWindow(tracker: string, window: TWindowSpec): Promise<TWindowState> {
    return this.oneWindow('peekWindow', tracker, window);
  }

  async countInWindow(tracker: string, window: TWindowSpec): Promise<TWindowState> {
    return this.oneWindow('countInWindow', tracker, window);
  }

  private async oneWindow(
    command: 'peekWindow' | 'countInWindow',
    tracker: string,
    window: TWindowSpec,
  ): Promise<TWindowState> {
    if (this.redis.status !== 'ready') {
      this.switchToFallback('not connected');
      return this.fallback[command](tracker, window);
    }
    try {
      const key = `${this.keyPrefix}{${tracker}}:${window.name}`;
      const [used, resetInMs] = await this.redis[command](key, window.ttlMs);
      return { ...window, used: used ?? 0, resetInMs: resetInMs ?? window.ttlMs };
    } catch (error) {
      this.switchToFallback(error instanceof Error ? error.message : String(error));
      return this.fallback[command](tracker, window);
    }
  }
}
