/** One quota window: at most `limit` requests per `ttlMs`, counted from the window's first request. */
export type TWindowSpec = { name: string; limit: number; ttlMs: number };

/** A window after a decision: requests counted in it (this one included when admitted). */
export type TWindowState = TWindowSpec & { used: number; resetInMs: number };

/**
 * The temporary ban of spec rule 5: a key that gets more than `threshold` 429s within `strikeWindowMs`
 * (it keeps sending while limited) is refused for `banMs`, but only if those refusals are sustained:
 * the first and the latest refusal counted are at least `sustainedMs` apart. One burst, however
 * large, is answered `rate_limited` and never bans (docs/decisions.md).
 */
export type TBanPolicy = {
  threshold: number;
  strikeWindowMs: number;
  banMs: number;
  sustainedMs: number;
};

export type TDecision =
  | { outcome: 'allowed'; windows: TWindowState[] }
  | { outcome: 'limited'; windows: TWindowState[] }
  | { outcome: 'banned'; windows: TWindowState[]; banEndsInMs: number; bannedNow: boolean };

/**
 * A window of another tracker that must have room before anything is counted: the failed-
 * authentication budget of the caller's address (auth/failed-auth-budget.ts), checked in the same
 * step (one Redis round trip) as the key's own windows. Nothing is counted in it.
 */
export type TPrecondition = { tracker: string; window: TWindowSpec };

/** `consume`'s answer when the precondition's window has no room: nothing was counted. */
export type TPrecluded = { outcome: 'precluded'; state: TWindowState };

/**
 * Counts a request against every window of a tracker at once: admitted only if all windows have
 * room, and then counted once in each; a refused request is not counted. Implementations are
 * atomic, so concurrent requests are admitted exactly up to the limit. With a precondition whose
 * window is full (`used >= limit`), the answer is `precluded` and nothing is counted anywhere.
 */
export type TRateLimitStore = {
  consume(
    tracker: string,
    windows: readonly TWindowSpec[],
    ban: TBanPolicy | null,
    precondition?: TPrecondition | null,
  ): Promise<TDecision | TPrecluded>;
  /** `memory`, `redis`, or `memory (redis unavailable)` when falling back. */
  describe(): { backend: string; degraded: boolean };
  close(): Promise<void>;
  /**
   * One window of a tracker as it stands, counting nothing: `used` is 0 when it has not started.
   * The failed-authentication budget (auth/failed-auth-budget.ts) asks this before any key lookup.
   */
  peekWindow(tracker: string, window: TWindowSpec): Promise<TWindowState>;
  /**
   * Counts one event in one window of a tracker whatever its limit (the window starts with the
   * first), and returns the window after it: a failed authentication of a client address.
   */
  countInWindow(tracker: string, window: TWindowSpec): Promise<TWindowState>;
};

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');
export const RATE_LIMIT_SETTINGS = Symbol('RATE_LIMIT_SETTINGS');

/** Window lengths and ban rules. Production uses the defaults; tests shorten them. */
export type TRateLimitSettings = {
  minuteMs: number;
  dayMs: number;
  ban: TBanPolicy;
  /** Prefix of every Redis key, so test runs never share counters. */
  redisKeyPrefix: string;
};

export const DEFAULT_RATE_LIMIT_SETTINGS: TRateLimitSettings = {
  minuteMs: 60_000,
  dayMs: 86_400_000,
  // More than 60 refused requests within one minute, spread over at least 10 seconds, earns a
  // 15-minute ban.
  ban: { threshold: 60, strikeWindowMs: 60_000, banMs: 15 * 60_000, sustainedMs: 10_000 },
  redisKeyPrefix: 'pets:rl:',
};
