import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestApi, type TTestApi } from '../test/api-harness';
import { freePort, startRedis } from '../test/redis-server';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';
import {
  admittedRemaining,
  burst,
  countStatuses,
  limitHeaders,
  list,
  sleep,
} from './rate-limit.test-support';

// A real Redis: TEST_REDIS_URL, or the local server .ci/run makes sure is up.
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `pets:test:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });

const withRedis = (extra: Record<string, string> = {}) => ({
  env: { REDIS_URL, ...extra },
  rateLimit: { redisKeyPrefix: prefix },
});

beforeAll(async () => {
  await redis.connect();
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) {
    await redis.del(...keys);
  }
  redis.disconnect();
});

describe('limits shared through Redis', () => {
  let database: TTestDatabase;
  let first: TTestApi;
  let second: TTestApi;
  beforeAll(async () => {
    database = await createTestDatabase();
    first = await startTestApi({ ...withRedis(), database });
    second = await startTestApi({ ...withRedis(), database });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('100 simultaneous requests on a fresh Free key admit exactly 60', async () => {
    const key = await first.createKey({ plan: 'free' });
    expect(countStatuses(await burst(list(first, key), 100))).toEqual({ 200: 60, 429: 40 });
    expect(await redis.keys(`${prefix}*`)).not.toHaveLength(0);
  });

  it('two API instances on one Redis admit exactly one plan’s worth between them', async () => {
    const key = await first.createKey({ plan: 'free' });
    let turn = 0;
    const responses = await burst(() => {
      turn += 1;
      return list(turn % 2 ? first : second, key)();
    }, 100);
    expect(countStatuses(responses)).toEqual({ 200: 60, 429: 40 });
    expect(admittedRemaining(responses)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('121 simultaneous requests on a Free key, across both instances: no ban', async () => {
    const key = await first.createKey({ plan: 'free' });
    let turn = 0;
    const responses = await burst(
      () => {
        turn += 1;
        return list(turn % 2 ? first : second, key)();
      },
      121,
      121,
    );
    expect(countStatuses(responses)).toEqual({ 200: 60, 429: 61 });
    const codes = await Promise.all(
      responses
        .filter((response) => response.status === 429)
        .map(async (response) => (await errorBody(response)).code),
    );
    expect(new Set(codes)).toEqual(new Set(['rate_limited']));
    expect(await errorBody(await list(second, key)())).toMatchObject({ code: 'rate_limited' });
  });

  it('a ban needs sustained refusals; decided by one instance, it holds on the other', async () => {
    // Two instances configured alike: one decides the ban, the other is asked.
    const banning = {
      ...withRedis(),
      database,
      rateLimit: {
        redisKeyPrefix: prefix,
        ban: { threshold: 2, strikeWindowMs: 60_000, banMs: 60_000, sustainedMs: 1_000 },
      },
    };
    const banned = await startTestApi(banning);
    const peer = await startTestApi(banning);
    try {
      const key = await banned.createKey({ plan: 'free' });
      // 10 refusals at once, 5 times the threshold: one burst, so no ban.
      const refusals = (await burst(list(banned, key), 70)).filter((r) => r.status === 429);
      expect(refusals).toHaveLength(10);
      for (const refused of refusals) {
        expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited' });
      }
      await sleep(1_100);
      expect(await errorBody(await list(banned, key)())).toMatchObject({
        code: 'api_key_banned',
      });
      const response = await list(peer, key)();
      expect(await errorBody(response)).toMatchObject({ code: 'api_key_banned', status: 429 });
      expect(limitHeaders(response).retryAfter).toBeGreaterThan(50);
    } finally {
      await banned.close();
      await peer.close();
    }
  });

  it('every key the limiter writes expires with its window, bans and refusals included', async () => {
    const keys = await redis.keys(`${prefix}*`);
    const longest: Record<string, number> = {
      minute: 60_000,
      day: 86_400_000,
      refusals: 60_000,
      ban: 60_000,
    };
    const kinds = new Set<string>();
    for (const key of keys) {
      const kind = key.slice(key.lastIndexOf(':') + 1);
      kinds.add(kind);
      const ttl = await redis.pttl(key);
      expect({ key, ttl: ttl > 0 && ttl <= (longest[kind] ?? 0) }).toEqual({ key, ttl: true });
    }
    // The earlier tests wrote every kind of key.
    expect([...kinds].sort()).toEqual(['ban', 'day', 'minute', 'refusals']);
  });

  it('a counter found without an expiry starts a fresh window, with one', async () => {
    const anonymous = () => first.fetch('/v1/pets?limit=1', { key: null });
    expect(limitHeaders(await anonymous()).remaining).toBe(59);
    const [minute] = await redis.keys(`${prefix}{ip:*}:minute`);
    expect(minute).toBeDefined();
    // As if an expiry had been lost: a count of 60 that would never expire.
    await redis.set(minute as string, '60');
    expect(await redis.pttl(minute as string)).toBe(-1);
    const response = await anonymous();
    expect(response.status).toBe(401);
    expect(limitHeaders(response).remaining).toBe(59);
    const ttl = await redis.pttl(minute as string);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

const waitForLog = async (api: TTestApi, predicate: (line: Record<string, unknown>) => boolean) => {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (api.logs.some(predicate)) {
      return true;
    }
    await sleep(100);
  }
  return false;
};

describe('Redis unreachable', () => {
  it('at startup: the API serves with per-process limits and says so', async () => {
    const api = await startTestApi(withRedis({ REDIS_URL: 'redis://127.0.0.1:1' }));
    try {
      const key = await api.createKey({ plan: 'free' });
      expect(countStatuses(await burst(list(api, key), 70))).toEqual({ 200: 60, 429: 10 });
      expect(
        api.logs.some((line) => line.event === 'rate_limit_backend' && line.backend === 'memory'),
      ).toBe(true);
    } finally {
      await api.close();
    }
  });

  it('during an outage: keeps serving, then goes back to Redis by itself', async () => {
    const port = await freePort();
    let server = await startRedis(port);
    const api = await startTestApi(withRedis({ REDIS_URL: `redis://127.0.0.1:${port}` }));
    const own = new Redis(port, '127.0.0.1', { lazyConnect: true });
    own.on('error', () => undefined);
    try {
      const key = await api.createKey({ plan: 'pro' });
      expect((await list(api, key)()).status).toBe(200);
      await own.connect();
      expect((await own.keys(`${prefix}*`)).length).toBeGreaterThan(0);
      own.disconnect();

      server.kill('SIGKILL');
      await sleep(300);
      expect((await list(api, key)()).status).toBe(200);
      expect(
        await waitForLog(
          api,
          (line) => line.event === 'rate_limit_backend' && line.backend === 'memory',
        ),
      ).toBe(true);

      server = await startRedis(port);
      expect(
        await waitForLog(
          api,
          (line) => line.event === 'rate_limit_backend' && line.backend === 'redis',
        ),
      ).toBe(true);
      const again = new Redis(port, '127.0.0.1', { lazyConnect: true });
      again.on('error', () => undefined);
      await again.connect();
      await again.flushall();
      expect((await list(api, key)()).status).toBe(200);
      expect((await again.keys(`${prefix}*`)).length).toBeGreaterThan(0);
      again.disconnect();
    } finally {
      await api.close();
      server.kill('SIGKILL');
    }
  });
});
