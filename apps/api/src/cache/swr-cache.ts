/** Milliseconds on a monotonic clock (`performance.now()` in production; a test clock in tests). */
export type TClock = () => number;

export type TSwrCacheSettings = {
  /** An answer younger than this is used as it is. */
  freshMs: number;
  /** An older answer is still used, while a refresh runs in the background, until this age. */
  maxAgeMs: number;
  /** Beyond this many keys, the one loaded longest ago is dropped. */
  maxEntries: number;
  now: TClock;
};

type TEntry<V> = { value: V; loadedAt: number; isRefreshing: boolean };

/**
 * A stale-while-revalidate cache in front of a loader (the model is Unkey's `pkg/cache/swr.ts`):
 * fresh answers cost nothing, stale ones are served while one background load refreshes them, and
 * past `maxAgeMs` a caller waits for the loader. Concurrent loads of one key share one call.
 *
 * Ours rather than lru-cache: lru-cache has one TTL, after which a stale value may be served for any
 * length of time (`allowStale`); we need a hard bound past which nothing stale is served (a revoked
 * key stops within 5 s), and a synchronous answer on a hit, so that the request path awaits nothing
 * (lru-cache's `fetch()` always returns a promise).
 */
export class SwrCache<K, V> {
  private readonly entries = new Map<K, TEntry<V>>();
  private readonly inFlight = new Map<K, Promise<V>>();

  constructor(
    private readonly load: (key: K) => Promise<V>,
    private readonly settings: TSwrCacheSettings,
    /** Which loaded values are kept; the others are returned and dropped (the default keeps all). */
    private readonly keep: (value: V) => boolean = () => true,
  ) {}

  /** The value for `key`: synchronously when cached (fresh or still usable), else a promise. */
  get(key: K): V | Promise<V> {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      return this.fetch(key);
    }
    const age = this.settings.now() - entry.loadedAt;
    if (age < this.settings.freshMs) {
      return entry.value;
    }
    if (age < this.settings.maxAgeMs) {
      this.refreshInBackground(key, entry);
      return entry.value;
    }
    return this.fetch(key);
  }

  /** The value for `key` only while it is fresh; never loads nor refreshes anything. */
  peekFresh(key: K): V | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && this.settings.now() - entry.loadedAt < this.settings.freshMs
      ? entry.value
      : undefined;
  }

  /** Drops `key`'s value: the next `get` loads it again. */
  delete(key: K): void {
    this.entries.delete(key);
  }

  private refreshInBackground(key: K, entry: TEntry<V>): void {
    if (entry.isRefreshing) {
      return;
    }
    entry.isRefreshing = true;
    this.fetch(key).catch(() => {
      // The next caller past maxAgeMs loads again and gets the failure.
      entry.isRefreshing = false;
    });
  }

  private fetch(key: K): Promise<V> {
    const pending = this.inFlight.get(key);
    if (pending) {
      return pending;
    }
    const loading = this.loadAndStore(key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, loading);
    return loading;
  }

  private async loadAndStore(key: K): Promise<V> {
    const value = await this.load(key);
    // Re-inserted, so that the Map's order is the order of loading and the first key the oldest.
    this.entries.delete(key);
    if (!this.keep(value)) {
      return value;
    }
    if (this.entries.size >= this.settings.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value);
      }
    }
    this.entries.set(key, { value, loadedAt: this.settings.now(), isRefreshing: false });
    return value;
  }
}
