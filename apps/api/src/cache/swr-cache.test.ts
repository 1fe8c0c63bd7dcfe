import { describe, expect, it } from 'vitest';
import { SwrCache } from './swr-cache';

/** A cache over a loader that counts its calls and answers `<key>#<call>`, on a clock we move. */
const setup = (overrides: { maxEntries?: number } = {}) => {
  let now = 0;
  let loads = 0;
  let failing = false;
  const cache = new SwrCache<string, string>(
    async (key) => {
      loads += 1;
      if (failing) {
        throw new Error('lookup failed');
      }
      return `${key}#${loads}`;
    },
    { freshMs: 2_000, maxAgeMs: 4_500, maxEntries: overrides.maxEntries ?? 10, now: () => now },
  );
  return {
    cache,
    advance: (ms: number) => {
      now += ms;
    },
    loads: () => loads,
    fail: (isFailing: boolean) => {
      failing = isFailing;
    },
  };
};

/** Lets a background refresh finish. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SwrCache', () => {
  it('a miss waits for the loader; a hit is answered synchronously, without loading', async () => {
    const { cache, loads } = setup();
    const first = cache.get('a');
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe('a#1');
    expect(cache.get('a')).toBe('a#1');
    expect(loads()).toBe(1);
  });

  it('concurrent misses of one key share one load', async () => {
    const { cache, loads } = setup();
    expect(await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')])).toEqual([
      'a#1',
      'a#1',
      'a#1',
    ]);
    expect(loads()).toBe(1);
  });

  it('a stale value is served while one background load refreshes it', async () => {
    const { cache, advance, loads } = setup();
    await cache.get('a');
    advance(2_000);
    expect(cache.get('a')).toBe('a#1');
    expect(cache.get('a')).toBe('a#1');
    await settle();
    expect(loads()).toBe(2);
    expect(cache.get('a')).toBe('a#2');
  });

  it('past maxAgeMs nothing stale is served: the caller waits for the loader', async () => {
    const { cache, advance } = setup();
    await cache.get('a');
    advance(4_500);
    const answer = cache.get('a');
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe('a#2');
  });

  it('a failed background refresh is retried, and reported to the first caller past maxAgeMs', async () => {
    const { cache, advance, loads, fail } = setup();
    await cache.get('a');
    fail(true);
    advance(2_000);
    expect(cache.get('a')).toBe('a#1');
    await settle();
    expect(cache.get('a')).toBe('a#1');
    await settle();
    expect(loads()).toBe(3);
    advance(2_500);
    await expect(cache.get('a')).rejects.toThrow('lookup failed');
  });

  it('beyond maxEntries, the key loaded longest ago is dropped', async () => {
    const { cache, loads } = setup({ maxEntries: 2 });
    await cache.get('a');
    await cache.get('b');
    await cache.get('c');
    expect(cache.get('c')).toBe('c#3');
    expect(cache.get('b')).toBe('b#2');
    expect(await cache.get('a')).toBe('a#4');
    expect(loads()).toBe(4);
  });

  it('a value `keep` refuses is returned but not stored, and drops what was stored', async () => {
    let now = 0;
    let answer: string | null = 'known';
    let loads = 0;
    const cache = new SwrCache<string, string | null>(
      async () => {
        loads += 1;
        return answer;
      },
      { freshMs: 2_000, maxAgeMs: 4_500, maxEntries: 10, now: () => now },
      (value) => value !== null,
    );
    expect(await cache.get('a')).toBe('known');
    expect(cache.get('a')).toBe('known');
    answer = null;
    now += 4_500;
    expect(await cache.get('a')).toBeNull();
    expect(await cache.get('a')).toBeNull();
    expect(loads).toBe(3);
  });
});
