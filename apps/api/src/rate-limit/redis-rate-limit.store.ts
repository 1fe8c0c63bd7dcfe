import Redis from 'ioredis';
import type { Logger } from 'pino';
import { DEFAULT_MAX_TRACKERS, MemoryRateLimitStore } from './memory-rate-limit.store';
import {
  type TBanPolicy,
  type TDecision,
  type TPrecluded,
  type TPrecondition,
  type TRateLimitStore,
  type TWindowSpec,
  type TWindowState,
} from './rate-limit.types';

/**
 * Every window of a tracker checked and counted in one round trip, atomically (Redis runs a script
 * alone), so any number of API instances share one exact budget per key.
 *
 * KEYS: the n window counters, then the refusals (a hash: count, since) and the ban flag, and
 * optionally the precondition's counter (the failed-authentication budget of the caller's address).
 * ARGV: n, the n limits, the n window lengths (ms), ban threshold (0: no ban), strike window, ban
 * length, sustained (ms), and with the precondition its limit and window length (ms).
 * Returns: outcome (1 allowed, 0 limited, 2 banned), ban ms left (or -1), banned-now flag, then
 * used and ms-to-reset for each window; or, when the precondition's window is full, { 3, its used,
 * its ms-to-reset } having counted nothing (the precondition is read as PEEK_WINDOW_SCRIPT reads
 * it).
 *
 * Every key it writes is created with its expiry (a window's length, the strike window, the ban's
 * length), and a key found without one (PTTL -1) is started afresh with one: nothing outlives its
 * window. The refusals' times come from Redis's clock (TIME), the same for every instance.
 */
const CONSUME_SCRIPT = `
local n = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2 + 2 * n])
local strikeWindow = tonumber(ARGV[3 + 2 * n])
local banMs = tonumber(ARGV[4 + 2 * n])
local sustained = tonumber(ARGV[5 + 2 * n])
local strikesKey = KEYS[n + 1]
local banKey = KEYS[n + 2]
local gateLimit = ARGV[6 + 2 * n]
if gateLimit then
  local gateTtl = redis.call('PTTL', KEYS[n + 3])
  if gateTtl > 0 then
    local gateUsed = tonumber(redis.call('GET', KEYS[n + 3]) or '0')
    if gateUsed >= tonumber(gateLimit) then
      return { 3, gateUsed, gateTtl }
    end
  end
end
local used = {}
local ttls = {}
local fresh = {}
for i = 1, n do
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl > 0 then
    used[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
    ttls[i] = ttl
  else
    used[i] = 0
    ttls[i] = tonumber(ARGV[1 + n + i])
    fresh[i] = true
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
      local clock = redis.call('TIME')
      local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
      local strikes = 1
      local since = now
      if redis.call('PTTL', strikesKey) > 0 then
        strikes = redis.call('HINCRBY', strikesKey, 'count', 1)
        since = tonumber(redis.call('HGET', strikesKey, 'since') or now)
      else
        redis.call('DEL', strikesKey)
        redis.call('HSET', strikesKey, 'count', 1, 'since', now)
        redis.call('PEXPIRE', strikesKey, strikeWindow)
      end
      -- Sustained, not one burst: the first and this refusal at least \`sustained\` ms apart.
      if strikes > threshold and now - since >= sustained then
        redis.call('DEL', strikesKey)
        redis.call('SET', banKey, '1', 'PX', banMs)
        return reply(2, banMs, 1)
      end
    end
    return reply(0, -1, 0)
  end
end
for i = 1, n do
  if fresh[i] then
    redis.call('SET', KEYS[i], '1', 'PX', ttls[i])
    used[i] = 1
  else
    used[i] = redis.call('INCR', KEYS[i])
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
  /** The number of keys, the keys, then the arguments (CONSUME_SCRIPT). */
  consumeRateLimit(...numberOfKeysKeysAndArgs: (string | number)[]): Promise<number[]>;
  peekWindow(key: string, windowMs: number): Promise<number[]>;
  countInWindow(key: string, windowMs: number): Promise<number[]>;
};

/** How long one Redis command may take: a hung Redis costs a request at most this, once. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** While the breaker is open, Redis is probed (PING) this long after the previous probe ended. */
export const REDIS_PROBE_INTERVAL_MS = 1_000;

/**
 * The script's arguments of one tracker, kept while its windows, ban and precondition stay the
 * same objects (a key's windows and its caller are cached, so they do): a request of a known
 * caller builds no key strings and no argument list. At most MAX_CACHED_ARGUMENTS trackers; the
 * cache starts afresh when full.
 */
type TScriptArguments = {
  windows: readonly TWindowSpec[];
  ban: TBanPolicy | null;
  preconditionTracker: string | undefined;
  preconditionWindow: TWindowSpec | undefined;
  argv: (string | number)[];
};
const MAX_CACHED_ARGUMENTS = 10_000;

/** What `viaRedis` answers instead when Redis is not to be asked or did not answer. */
const UNAVAILABLE = Symbol('redis unavailable');

/**
 * Redis when it answers; this process's memory when it does not, behind a circuit breaker:
 * - closed (normal): every decision is one script in Redis;
 * - open: the first command that fails or times out (REDIS_COMMAND_TIMEOUT_MS), or the connection
 *   closing, opens it. From then on Redis is not asked at all: decisions are per process at once,
 *   including those already waiting on Redis, so a hung Redis costs at most one timeout. It is
 *   logged once, and readiness reports `degraded`;
 * - a probe (PING) every REDIS_PROBE_INTERVAL_MS, in the background, one at a time: when Redis
 *   answers, the breaker closes, limits are shared again, readiness says `ok`, logged once.
 * Commands are never queued while disconnected nor resent after a reconnect: a request answered
 * from memory is not counted again in Redis later.
 */
export class RedisRateLimitStore implements TRateLimitStore {
  private readonly redis: TRedisWithScript;
  private readonly fallback: MemoryRateLimitStore;
  private isOpen = false;
  private isProbing = false;
  private isClosing = false;
  private probeTimer: NodeJS.Timeout | null = null;
  /** Calls waiting on Redis: when the breaker opens, each gives up at once (UNAVAILABLE). */
  private readonly waiting = new Set<() => void>();
  private readonly scriptArguments = new Map<string, TScriptArguments>();

  constructor(
    url: string,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
    maxTrackers = DEFAULT_MAX_TRACKERS,
  ) {
    this.fallback = new MemoryRateLimitStore(Date.now, maxTrackers);
    this.redis = new Redis(url, {
      // Fail fast instead of queueing while disconnected: the fallback answers meanwhile.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectTimeout: 2_000,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 250, 5_000),
      // Under load, the counts of the requests that arrive together go out in one write (one
      // system call instead of one per request); each script still runs alone and atomically.
      enableAutoPipelining: true,
    }) as TRedisWithScript;
    this.redis.defineCommand('consumeRateLimit', { lua: CONSUME_SCRIPT });
    this.redis.defineCommand('peekWindow', { numberOfKeys: 1, lua: PEEK_WINDOW_SCRIPT });
    this.redis.defineCommand('countInWindow', { numberOfKeys: 1, lua: COUNT_WINDOW_SCRIPT });
    this.redis.on('ready', () => {
      // Reconnected: probe at once rather than at the next interval.
      void this.probe();
    });
    this.redis.on('close', () => this.open('connection closed'));
    this.redis.on('error', () => {
      // Reported through the breaker; ioredis reconnects by itself.
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
      this.open('no connection at startup');
    }
    return ready;
  }

  async consume(
    tracker: string,
    windows: readonly TWindowSpec[],
    ban: TBanPolicy | null,
    precondition: TPrecondition | null = null,
  ): Promise<TDecision | TPrecluded> {
    const argv = this.argumentsOf(tracker, windows, ban, precondition);
    const reply = await this.viaRedis(() => this.redis.consumeRateLimit(...argv));
    if (reply === UNAVAILABLE) {
      return this.fallback.consume(tracker, windows, ban, precondition);
    }
    const [outcome, banLeft, bannedNow] = reply;
    if (outcome === 3 && precondition) {
      const { window } = precondition;
      return {
        outcome: 'precluded',
        state: { ...window, used: reply[1] ?? 0, resetInMs: reply[2] ?? window.ttlMs },
      };
    }
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

  /** CONSUME_SCRIPT's number of keys, keys and arguments for this tracker (see TScriptArguments). */
  private argumentsOf(
    tracker: string,
    windows: readonly TWindowSpec[],
    ban: TBanPolicy | null,
    precondition: TPrecondition | null,
  ): (string | number)[] {
    const known = this.scriptArguments.get(tracker);
    if (
      known &&
      known.windows === windows &&
      known.ban === ban &&
      known.preconditionTracker === precondition?.tracker &&
      known.preconditionWindow === precondition?.window
    ) {
      return known.argv;
    }
    const base = `${this.keyPrefix}{${tracker}}`;
    const keys = [
      ...windows.map((window) => `${base}:${window.name}`),
      // Not `strikes` (a plain counter before sustained refusals were required): a new name, so
      // an old key of the other type is never met during a rolling deploy.
      `${base}:refusals`,
      `${base}:ban`,
    ];
    const args = [
      windows.length,
      ...windows.map((window) => window.limit),
      ...windows.map((window) => window.ttlMs),
      ban?.threshold ?? 0,
      ban?.strikeWindowMs ?? 0,
      ban?.banMs ?? 0,
      ban?.sustainedMs ?? 0,
    ];
    if (precondition) {
      // The same key as peekWindow/countInWindow's for that tracker and window. This store talks
      // to one Redis (not a Cluster), so a script's keys need not share a hash slot.
      keys.push(this.windowKey(precondition.tracker, precondition.window));
      args.push(precondition.window.limit, precondition.window.ttlMs);
    }
    const argv = [keys.length, ...keys, ...args];
    if (this.scriptArguments.size >= MAX_CACHED_ARGUMENTS) {
      this.scriptArguments.clear();
    }
    this.scriptArguments.set(tracker, {
      windows,
      ban,
      preconditionTracker: precondition?.tracker,
      preconditionWindow: precondition?.window,
      argv,
    });
    return argv;
  }

  describe() {
    return this.isOpen || this.redis.status !== 'ready'
      ? { backend: 'memory (redis unavailable)', degraded: true }
      : { backend: 'redis', degraded: false };
  }

  async close(): Promise<void> {
    this.isClosing = true;
    if (this.probeTimer) {
      clearTimeout(this.probeTimer);
    }
    await this.fallback.close();
    this.redis.disconnect();
  }

  /**
   * Asks Redis through the breaker: UNAVAILABLE at once while it is open, and UNAVAILABLE when the
   * call fails, times out, or is still waiting when the breaker opens (then the caller uses the
   * fallback). Any store method that talks to Redis goes through here.
   */
  private async viaRedis<T>(call: () => Promise<T>): Promise<T | typeof UNAVAILABLE> {
    if (this.isOpen) {
      return UNAVAILABLE;
    }
    if (this.redis.status !== 'ready') {
      this.open('not connected');
      return UNAVAILABLE;
    }
    try {
      return await new Promise<T | typeof UNAVAILABLE>((resolve, reject) => {
        const giveUp = () => resolve(UNAVAILABLE);
        this.waiting.add(giveUp);
        call().then(
          (value) => {
            this.waiting.delete(giveUp);
            resolve(value);
          },
          (error: unknown) => {
            this.waiting.delete(giveUp);
            reject(error);
          },
        );
      });
    } catch (error) {
      this.open(error instanceof Error ? error.message : String(error));
      return UNAVAILABLE;
    }
  }

  private open(reason: string): void {
    if (this.isOpen || this.isClosing) {
      return;
    }
    this.isOpen = true;
    for (const giveUp of this.waiting) {
      giveUp();
    }
    this.waiting.clear();
    this.logger.error(
      { event: 'rate_limit_backend', backend: 'memory', reason },
      'Redis unavailable: rate limits are per process until it answers again',
    );
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.probeTimer || this.isClosing) {
      return;
    }
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      void this.probe();
    }, REDIS_PROBE_INTERVAL_MS);
    this.probeTimer.unref();
  }

  /** One PING (within the command timeout); closes the breaker when Redis answers. */
  private async probe(): Promise<void> {
    if (!this.isOpen || this.isProbing || this.isClosing) {
      return;
    }
    this.isProbing = true;
    try {
      await this.redis.ping();
      if (this.isOpen && !this.isClosing) {
        this.isOpen = false;
        this.logger.warn(
          { event: 'rate_limit_backend', backend: 'redis' },
          'Redis is back: rate limits are shared again',
        );
      }
    } catch {
      // Still unavailable: try again at the next interval.
    } finally {
      this.isProbing = false;
      if (this.isOpen) {
        this.scheduleProbe();
      }
    }
  }

  private windowKey(tracker: string, window: TWindowSpec): string {
    return `${this.keyPrefix}{${tracker}}:${window.name}`;
  }

  // The failed-authentication budget's two operations (see TRateLimitStore): one counter per
  // window, in the tracker's hash slot like consume's, through the same breaker and fallback.

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
    const key = this.windowKey(tracker, window);
    const reply = await this.viaRedis(() => this.redis[command](key, window.ttlMs));
    if (reply === UNAVAILABLE) {
      return this.fallback[command](tracker, window);
    }
    const [used, resetInMs] = reply;
    return { ...window, used: used ?? 0, resetInMs: resetInMs ?? window.ttlMs };
  }
}
