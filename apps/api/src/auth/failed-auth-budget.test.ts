import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger';
import { MemoryRateLimitStore } from '../rate-limit/memory-rate-limit.store';
import type { TRateLimitStore } from '../rate-limit/rate-limit.types';
import { RedisRateLimitStore } from '../rate-limit/redis-rate-limit.store';

// The two store operations the failed-authentication budget needs, on both stores: peek counts
// nothing, count starts the window with the first event and keeps its end, and the window expires.
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const WINDOW = { name: 'auth_failures', limit: 3, ttlMs: 60_000 };
const silent = createLogger('silent');

const behaves = async (store: TRateLimitStore, tracker: string) => {
  expect(await store.peekWindow(tracker, WINDOW)).toMatchObject({ used: 0, resetInMs: 60_000 });
  expect(await store.peekWindow(tracker, WINDOW)).toMatchObject({ used: 0 });
  expect((await store.countInWindow(tracker, WINDOW)).used).toBe(1);
  expect((await store.countInWindow(tracker, WINDOW)).used).toBe(2);
  // Counting ignores the limit: a failure past it is still a failure.
  for (let i = 0; i < 3; i += 1) {
    await store.countInWindow(tracker, WINDOW);
  }
  const peeked = await store.peekWindow(tracker, WINDOW);
  expect(peeked.used).toBe(5);
  expect(peeked.resetInMs).toBeGreaterThan(50_000);
  expect(peeked.resetInMs).toBeLessThanOrEqual(60_000);
  // Other trackers and other windows of this one are apart.
  expect((await store.peekWindow(`${tracker}-other`, WINDOW)).used).toBe(0);
  expect((await store.peekWindow(tracker, { ...WINDOW, name: 'minute' })).used).toBe(0);
};

// consume with the budget as its precondition: a full budget precludes the request, counting
// nothing in the key's windows; room in it changes nothing.
const MINUTE = { name: 'minute', limit: 100, ttlMs: 60_000 };
const gated = async (store: TRateLimitStore, address: string) => {
  const precondition = { tracker: address, window: WINDOW };
  const key = `key:${address}`;
  expect(await store.consume(key, [MINUTE], null, precondition)).toMatchObject({
    outcome: 'allowed',
    windows: [{ used: 1 }],
  });
  for (let i = 0; i < WINDOW.limit; i += 1) {
    await store.countInWindow(address, WINDOW);
  }
  const precluded = await store.consume(key, [MINUTE], null, precondition);
  expect(precluded).toMatchObject({ outcome: 'precluded', state: { used: 3, limit: 3 } });
  expect(precluded.outcome === 'precluded' && precluded.state.resetInMs).toBeGreaterThan(50_000);
  // Nothing was counted: the key's next request elsewhere is its second.
  expect(await store.consume(key, [MINUTE], null)).toMatchObject({ windows: [{ used: 2 }] });
  expect((await store.peekWindow(address, WINDOW)).used).toBe(3);
};

describe('consume with the failed-authentication budget as precondition', () => {
  it('in memory', async () => {
    const store = new MemoryRateLimitStore();
    try {
      await gated(store, 'authfail:192.0.2.4');
    } finally {
      await store.close();
    }
  });

  it('in Redis', async () => {
    const prefix = `pets:test:${randomBytes(6).toString('hex')}:`;
    const store = new RedisRateLimitStore(REDIS_URL, prefix, silent);
    try {
      expect(await store.connect()).toBe(true);
      await gated(store, 'authfail:192.0.2.5');
      expect(store.describe()).toEqual({ backend: 'redis', degraded: false });
    } finally {
      await store.close();
    }
  });

  it('Redis unreachable: answered from memory', async () => {
    const store = new RedisRateLimitStore('redis://127.0.0.1:1', 'pets:test:', silent);
    try {
      expect(await store.connect(300)).toBe(false);
      await gated(store, 'authfail:192.0.2.6');
    } finally {
      await store.close();
    }
  });
});

describe('peekWindow and countInWindow', () => {
  it('in memory, and the window ends ttlMs after its first event', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    try {
      await behaves(store, 'authfail:192.0.2.1');
      now += 59_999;
      expect((await store.peekWindow('authfail:192.0.2.1', WINDOW)).used).toBe(5);
      now += 1;
      expect((await store.peekWindow('authfail:192.0.2.1', WINDOW)).used).toBe(0);
      expect((await store.countInWindow('authfail:192.0.2.1', WINDOW)).used).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('in Redis', async () => {
    const prefix = `pets:test:${randomBytes(6).toString('hex')}:`;
    const store = new RedisRateLimitStore(REDIS_URL, prefix, silent);
    try {
      expect(await store.connect()).toBe(true);
      await behaves(store, 'authfail:192.0.2.2');
      expect(store.describe()).toEqual({ backend: 'redis', degraded: false });
    } finally {
      await store.close();
    }
  });

  it('Redis unreachable: answered from memory', async () => {
    const store = new RedisRateLimitStore('redis://127.0.0.1:1', 'pets:test:', silent);
    try {
      expect(await store.connect(300)).toBe(false);
      await behaves(store, 'authfail:192.0.2.3');
    } finally {
      await store.close();
    }
  });
});
