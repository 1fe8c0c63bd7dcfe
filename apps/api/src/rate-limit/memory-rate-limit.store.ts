import {
  type TBanPolicy,
  type TDecision,
  type TPrecluded,
  type TPrecondition,
  type TRateLimitStore,
  type TWindowSpec,
  type TWindowState,
} from './rate-limit.types';
import { type TCounter, TrackerCounters } from './tracker-counters';

const SWEEP_INTERVAL_MS = 30_000;

/** Default of RATE_LIMIT_MEMORY_MAX_TRACKERS: about 50 MB of counters at most. */
export const DEFAULT_MAX_TRACKERS = 100_000;

/**
 * Limits in this process's memory. Each decision runs synchronously from check to count, so in
 * one process it is exact under any concurrency. Expired counters are swept periodically, and at
 * most `maxTrackers` trackers are held: beyond that the least recently used one is evicted and
 * starts afresh (TrackerCounters).
 */
export class MemoryRateLimitStore implements TRateLimitStore {
  private readonly counters: TrackerCounters;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    maxTrackers = DEFAULT_MAX_TRACKERS,
  ) {
    this.counters = new TrackerCounters(maxTrackers);
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async consume(
    tracker: string,
    windows: readonly TWindowSpec[],
    ban: TBanPolicy | null,
    precondition: TPrecondition | null = null,
  ): Promise<TDecision | TPrecluded> {
    if (precondition) {
      const state = this.windowNow(precondition.tracker, precondition.window);
      if (state.used >= state.limit) {
        return { outcome: 'precluded', state };
      }
    }
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
        const strikes = live(strikesKey) ?? {
          count: 0,
          expiresAt: now + ban.strikeWindowMs,
          since: now,
        };
        strikes.count += 1;
        this.counters.set(strikesKey, strikes);
        // Sustained, not one burst: the first and this refusal at least `sustainedMs` apart.
        if (strikes.count > ban.threshold && now - (strikes.since ?? now) >= ban.sustainedMs) {
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

  /** Trackers held and evicted so far (tests, diagnostics). */
  stats(): { trackers: number; evicted: number } {
    return this.counters.stats();
  }

  private sweep(): void {
    this.counters.sweep(this.now());
  }

  // The failed-authentication budget's two operations (see TRateLimitStore).

  async peekWindow(tracker: string, window: TWindowSpec): Promise<TWindowState> {
    return this.windowNow(tracker, window);
  }

  private windowNow(tracker: string, window: TWindowSpec): TWindowState {
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
