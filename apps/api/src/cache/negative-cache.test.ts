import { describe, expect, it } from 'vitest';
import { NegativeCache } from './negative-cache';

const setup = (maxEntries = 3) => {
  let now = 0;
  const cache = new NegativeCache<string>({ ttlMs: 60_000, maxEntries, now: () => now });
  return {
    cache,
    advance: (ms: number) => {
      now += ms;
    },
  };
};

describe('NegativeCache', () => {
  it('remembers a key for ttlMs, then forgets it', () => {
    const { cache, advance } = setup();
    expect(cache.has('a')).toBe(false);
    cache.add('a');
    advance(59_999);
    expect(cache.has('a')).toBe(true);
    advance(1);
    expect(cache.has('a')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries keys, evicting the least recently used', () => {
    const { cache } = setup(3);
    cache.add('a');
    cache.add('b');
    cache.add('c');
    expect(cache.has('a')).toBe(true);
    cache.add('d');
    expect(cache.size).toBe(3);
    expect(cache.has('b')).toBe(false);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('c')).toBe(true);
    expect(cache.has('d')).toBe(true);
  });

  it('a flood of distinct keys keeps the size bounded', () => {
    const { cache } = setup(100);
    for (let i = 0; i < 10_000; i += 1) {
      cache.add(`k${i}`);
    }
    expect(cache.size).toBe(100);
    expect(cache.has('k9999')).toBe(true);
    expect(cache.has('k0')).toBe(false);
  });
});
