import { describe, expect, it } from 'vitest';
import { TrackerCounters } from './tracker-counters';

describe('TrackerCounters', () => {
  it('150,000 distinct addresses: never more than the cap held', () => {
    const counters = new TrackerCounters(1_000);
    let most = 0;
    for (let i = 0; i < 150_000; i += 1) {
      const tracker = `ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      counters.set(`${tracker}:minute`, { count: 1, expiresAt: Number.MAX_SAFE_INTEGER });
      counters.set(`${tracker}:day`, { count: 1, expiresAt: Number.MAX_SAFE_INTEGER });
      most = Math.max(most, counters.stats().trackers);
    }
    expect(most).toBe(1_000);
    expect(counters.stats()).toEqual({ trackers: 1_000, evicted: 149_000 });
  });

  it('evicts the least recently used tracker with all its counters', () => {
    const counters = new TrackerCounters(2);
    counters.set('ip:2001:db8::/64:minute', { count: 5, expiresAt: 100 });
    counters.set('ip:2001:db8::/64:day', { count: 7, expiresAt: 100 });
    counters.set('key:b:minute', { count: 1, expiresAt: 100 });
    // The IPv6 tracker is used again: `key:b` is now the least recently used.
    expect(counters.get('ip:2001:db8::/64:minute')?.count).toBe(5);
    counters.set('key:c:minute', { count: 1, expiresAt: 100 });
    expect(counters.get('key:b:minute')).toBeUndefined();
    expect(counters.get('ip:2001:db8::/64:day')?.count).toBe(7);
    expect(counters.get('key:c:minute')?.count).toBe(1);
  });

  it('sweeps expired counters and trackers left empty', () => {
    const counters = new TrackerCounters(10);
    counters.set('key:a:minute', { count: 1, expiresAt: 10 });
    counters.set('key:a:day', { count: 1, expiresAt: 50 });
    counters.set('key:b:minute', { count: 1, expiresAt: 10 });
    counters.sweep(20);
    expect(counters.stats().trackers).toBe(1);
    expect(counters.get('key:a:day')?.count).toBe(1);
    expect(counters.get('key:a:minute')).toBeUndefined();
  });
});
