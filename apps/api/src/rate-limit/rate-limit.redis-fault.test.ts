import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestApi, type TTestApi } from '../test/api-harness';
import { freePort, startRedis } from '../test/redis-server';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';
import { burst, countStatuses, list, sleep } from './rate-limit.test-support';

// Fault test on the test's OWN redis-server (never the machine's shared one): it is hung with
// SIGSTOP under load, then resumed with SIGCONT.

const prefix = `pets:test:${randomBytes(6).toString('hex')}:`;

const backendLines = (api: TTestApi, backend: 'memory' | 'redis') =>
  api.logs.filter((line) => line.event === 'rate_limit_backend' && line.backend === backend);

const readiness = async (api: TTestApi) => {
  const response = await fetch(`${api.baseUrl}/readyz`);
  const body = (await response.json()) as {
    status: string;
    checks: { rateLimits: { status: string; backend: string } };
  };
  return { http: response.status, status: body.status, rateLimits: body.checks.rateLimits };
};

const timed = async (send: () => Promise<Response>) => {
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
};

describe('Redis hung (SIGSTOP) under load, then resumed', () => {
  let port: number;
  let server: ChildProcess;
  let database: TTestDatabase;
  let first: TTestApi;
  let second: TTestApi;
  let isStopped = false;

  beforeAll(async () => {
    port = await freePort();
    server = await startRedis(port);
    database = await createTestDatabase();
    const options = {
      env: { REDIS_URL: `redis://127.0.0.1:${port}` },
      rateLimit: { redisKeyPrefix: prefix },
      database,
    };
    first = await startTestApi(options);
    second = await startTestApi(options);
  });

  afterAll(async () => {
    if (isStopped) {
      server.kill('SIGCONT');
    }
    await first?.close();
    await second?.close();
    server?.kill('SIGKILL');
    await database?.drop();
  });

  it('costs one timeout, then per-process limits at once; shared again once Redis answers', async () => {
    const key = await first.createKey({
      plan: 'enterprise',
      rateLimitPerMinute: 1_000_000,
      rateLimitPerDay: 10_000_000,
    });
    expect((await list(first, key)()).status).toBe(200);
    expect(await readiness(first)).toMatchObject({ http: 200, status: 'ok' });

    // Load: 4 clients sending one request after another, from before the hang to after it.
    let isLoading = true;
    onTestFinished(() => {
      isLoading = false;
    });
    const loadStatuses: number[] = [];
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (isLoading) {
          // 0: no response at all (counted as a failure below).
          loadStatuses.push(
            await timed(list(first, key)).then(
              ({ status }) => status,
              () => 0,
            ),
          );
        }
      }),
    );
    await sleep(200);

    server.kill('SIGSTOP');
    isStopped = true;
    // The first request may wait for the command timeout (1 s), once.
    const firstAfterHang = await timed(list(first, key));
    expect(firstAfterHang.status).toBe(200);
    expect(firstAfterHang.ms).toBeLessThan(3_000);
    // Every request after it is answered without waiting for Redis (a generous bound: each one
    // waiting for the timeout would take 1,000 ms or more).
    const after: { status: number; ms: number }[] = [];
    for (let i = 0; i < 20; i += 1) {
      after.push(await timed(list(first, key)));
      if ((after.at(-1)?.ms ?? 0) >= 500) {
        break;
      }
    }
    expect(after.filter((each) => each.ms >= 500)).toEqual([]);
    expect(after.map((each) => each.status)).toEqual(Array(20).fill(200));

    const degraded = await readiness(first);
    expect(degraded).toMatchObject({
      http: 200,
      status: 'degraded',
      rateLimits: { status: 'degraded', backend: 'memory (redis unavailable)' },
    });
    await sleep(1_500);
    expect(backendLines(first, 'memory')).toHaveLength(1);

    server.kill('SIGCONT');
    isStopped = false;
    // Within a few seconds, readiness says the limits are shared again.
    let recovered = await readiness(first);
    for (let waited = 0; recovered.status !== 'ok' && waited < 10_000; waited += 200) {
      await sleep(200);
      recovered = await readiness(first);
    }
    expect(recovered).toMatchObject({
      http: 200,
      status: 'ok',
      rateLimits: { status: 'ok', backend: 'redis' },
    });
    isLoading = false;
    await load;
    expect(loadStatuses.filter((status) => status !== 200)).toEqual([]);

    // Shared again: a Free key's 60 between the two instances, not 60 each.
    const free = await first.createKey({ plan: 'free' });
    let turn = 0;
    const responses = await burst(() => {
      turn += 1;
      return list(turn % 2 ? first : second, free)();
    }, 100);
    expect(countStatuses(responses)).toEqual({ 200: 60, 429: 40 });
    const own = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
    await own.connect();
    try {
      expect((await own.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    } finally {
      own.disconnect();
    }

    // Each transition logged exactly once.
    expect(backendLines(first, 'memory')).toHaveLength(1);
    expect(backendLines(first, 'redis')).toHaveLength(1);
    expect(backendLines(first, 'memory')[0]?.msg).toMatch(/^Redis unavailable: .*per process/);
    expect(backendLines(first, 'redis')[0]?.msg).toMatch(/^Redis is back: .*shared again/);
  });
});
