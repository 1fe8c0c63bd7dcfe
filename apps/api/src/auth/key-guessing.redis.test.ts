import { randomBytes } from 'node:crypto';
import { generateApiKey } from '@pets/store/api-key-format';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitHeaders, sleep } from '../rate-limit/rate-limit.test-support';
import { errorBody, startTestApi, type TTestApi } from '../test/api-harness';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';

// A real Redis: TEST_REDIS_URL, or the local server .ci/run makes sure is up. Two API instances
// on one database and one Redis share each address's failed-authentication budget.
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `pets:test:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
const BUDGET = 5;

const instance = (database: TTestDatabase, windowSeconds = 60) =>
  startTestApi({
    env: {
      REDIS_URL,
      TRUSTED_PROXIES: 'loopback',
      AUTH_FAILURE_LIMIT: String(BUDGET),
      AUTH_FAILURE_WINDOW_SECONDS: String(windowSeconds),
    },
    rateLimit: { redisKeyPrefix: prefix },
    database,
  });

const from = (api: TTestApi, address: string, key: string) =>
  api.fetch('/v1/pets?limit=1', { key, headers: { 'x-forwarded-for': address } });

const guess = () => generateApiKey('production').key;

let database: TTestDatabase;
let first: TTestApi;
let second: TTestApi;

beforeAll(async () => {
  await redis.connect();
  database = await createTestDatabase();
  first = await instance(database);
  second = await instance(database);
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await database?.drop();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) {
    await redis.del(...keys);
  }
  redis.disconnect();
});

describe('failed authentications shared through Redis', () => {
  it('guesses on one instance refuse the address’s valid key on the other, at no lookup', async () => {
    const key = await first.createKey();
    // Known to the second instance's key cache: its budget is then checked by the limiter's script.
    const admitted = await from(second, '198.51.100.1', key);
    expect(admitted.status).toBe(200);
    const remainingBefore = limitHeaders(admitted).remaining;
    for (let i = 0; i < BUDGET; i += 1) {
      expect((await from(i % 2 ? first : second, '198.51.100.1', guess())).status).toBe(401);
    }
    const lookups = () => first.keyLookups() + second.keyLookups();
    const before = lookups();

    const refused = await from(second, '198.51.100.1', key);
    expect(refused.status).toBe(429);
    expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limitHeaders(refused)).toMatchObject({ limit: BUDGET, remaining: 0 });
    expect(limitHeaders(refused).retryAfter).toBeGreaterThan(50);
    for (let i = 0; i < 20; i += 1) {
      expect((await from(i % 2 ? first : second, '198.51.100.1', guess())).status).toBe(429);
    }
    expect((await from(second, '198.51.100.1', key)).status).toBe(429);
    expect(lookups()).toBe(before);

    // The refused requests were not counted against the key's own limit.
    const elsewhere = await from(second, '198.51.100.2', key);
    expect(elsewhere.status).toBe(200);
    expect(limitHeaders(elsewhere).remaining).toBe(remainingBefore - 1);
  });

  it('the counter is a Redis key that expires with its window', async () => {
    expect((await from(first, '198.51.100.3', guess())).status).toBe(401);
    const counter = `${prefix}{authfail:198.51.100.3}:auth_failures`;
    expect(await redis.get(counter)).toBe('1');
    const ttl = await redis.pttl(counter);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('once the window is over, the address’s valid key works again', async () => {
    const short = await instance(database, 1);
    try {
      const key = await short.createKey();
      for (let i = 0; i < BUDGET; i += 1) {
        expect((await from(short, '198.51.100.4', guess())).status).toBe(401);
      }
      expect((await from(short, '198.51.100.4', key)).status).toBe(429);
      await sleep(1_100);
      expect((await from(short, '198.51.100.4', key)).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});
