import {
  type TBanPolicy,
  type TDecision,
  type TRateLimitStore,
  type TWindowSpec,
  type TWindowState,
} from './rate-limit.types';

type TCounter = { count: number; expiresAt: number };

const SWEEP_INTERVAL_MS = 30_000;

/**
 * Limits in this process's memory. Each decision runs synchronously from check to count, so in
 * one process it is exact under any concurrency. Expired counters are swept periodically.
 */
export class MemoryRateLimitStore implements TRateLimitStore {
  private readonly counters = new Map<string, TCounter>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async consume(
    tracker: string,
    windows: readonly TWindowSpec[],
    ban: TBanPolicy | null,
  ): Promise<TDecision> {
    return this.consumeNow(tracker, windows, ban);
  }

  consumeNow(tracker: string, windows: readonly TWindowSpec[], ban: TBanPolicy | null): TDecision {
    const now = this.now();
    const live = (key: string): TCounter | null => {
      const counter = this.counters.get(key);
      return counter && counter.expiresAt > now ? counter : null;
    };
    const states = (): TWindowState[] =>
      windows.map((window) => {
        const counter = live(`${tracker}:${window.name}`);
        return {
          ...window,
          used: counter?.count ?? 0,
          resetInMs: counter ? counter.expiresAt - now : window.ttlMs,
        };
      });

    if (ban) {
      const banned = live(`${tracker}:ban`);
      if (banned) {
        return {
          outcome: 'banned',
          windows: states(),
          banEndsInMs: banned.expiresAt - now,
          bannedNow: false,
        };
      }
    }
    const before = states();
    if (before.some((window) => window.used >= window.limit)) {
      if (ban) {
        const strikesKey = `${tracker}:strikes`;
        const strikes = live(strikesKey) ?? { count: 0, expiresAt: now + ban.strikeWindowMs };
        strikes.count += 1;
        this.counters.set(strikesKey, strikes);
        if (strikes.count > ban.threshold) {
          this.counters.delete(strikesKey);
          this.counters.set(`${tracker}:ban`, { count: 1, expiresAt: now + ban.banMs });
          return { outcome: 'banned', windows: before, banEndsInMs: ban.banMs, bannedNow: true };
        }
      }
      return { outcome: 'limited', windows: before };
    }
    const after = before.map((window) => {
      const key = `${tracker}:${window.name}`;
      const counter = live(key) ?? { count: 0, expiresAt: now + window.ttlMs };
      counter.count += 1;
      this.counters.set(key, counter);
      return { ...window, used: counter.count, resetInMs: counter.expiresAt - now };
    });
    return { outcome: 'allowed', windows: after };
  }

  describe() {
    return { backend: 'memory', degraded: false };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, counter] of this.counters) {
      if (counter.expiresAt <= now) {
        this.counters.delete(key);
      }
    }
  }

  // The failed-authentication budget's two operations (see TRateLimitStore).

  async peekWindow(tracker: string, window: TWindowSpec): Promise<TWindowState> {
    const now = this.now();
    const counter = this.counters.get(`${tracker}:${window.name}`);
    return counter && counter.expiresAt > now
      ? { ...window, used: counter.count, resetInMs: counter.expiresAt - now }
      : { ...window, used: 0, resetInMs: window.ttlMs };
  }

  async countInWindow(tracker: string, window: TWindowSpec): Promise<TWindowState> {
    const now = this.now();
    const key = `${tracker}:${window.name}`;
    const live = this.counters.get(key);
    const counter =
      live && live.expiresAt > now ? live : { count: 0, expiresAt: now + window.ttlMs };
    counter.count += 1;
    this.counters.set(key, counter);
    return { ...window, used: counter.count, resetInMs: counter.expiresAt - now };
  }
}
