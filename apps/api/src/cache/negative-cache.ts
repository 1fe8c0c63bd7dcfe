import type { TClock } from './swr-cache';

export type TNegativeCacheSettings = {
  /** How long a key is remembered as absent. */
  ttlMs: number;
  /** Beyond this many keys, the least recently asked for is forgotten. */
  maxEntries: number;
  now: TClock;
};

/**
 * Keys recently found absent (a set with a time to live), so that asking again costs nothing: in
 * front of the key lookup, it remembers hashes that no stored key has. Bounded: at most
 * `maxEntries` keys, the least recently used evicted first (a Map keeps insertion order; a hit
 * re-inserts its key), so a flood of distinct keys costs bounded memory and evicts only other
 * absent keys, never a cached known one (those live in the SwrCache).
 */
export class NegativeCache<K> {
  private readonly expiries = new Map<K, number>();

  constructor(private readonly settings: TNegativeCacheSettings) {}

  /** Whether `key` was found absent less than `ttlMs` ago. */
  has(key: K): boolean {
    const expiresAt = this.expiries.get(key);
    if (expiresAt === undefined) {
      return false;
    }
    this.expiries.delete(key);
    if (expiresAt <= this.settings.now()) {
      return false;
    }
    this.expiries.set(key, expiresAt);
    return true;
  }

  /** Remembers `key` as absent for `ttlMs`. */
  add(key: K): void {
    this.expiries.delete(key);
    if (this.expiries.size >= this.settings.maxEntries) {
      const oldest = this.expiries.keys().next();
      if (!oldest.done) {
        this.expiries.delete(oldest.value);
      }
    }
    this.expiries.set(key, this.settings.now() + this.settings.ttlMs);
  }

  /** Forgets `key` (it exists now, or may). */
  delete(key: K): void {
    this.expiries.delete(key);
  }

  get size(): number {
    return this.expiries.size;
  }
}
