import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorBody, startTestApi, type TTestApi, useTestApi } from '../../test/api-harness';
import { freePort, startRedis } from '../../test/redis-server';

// A real Redis: TEST_REDIS_URL, or the local server .ci/run makes sure is up.
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const rateLimit = { redisKeyPrefix: `pets:test:${randomBytes(6).toString('hex')}:` };
/** Nothing listens on port 1 of the loopback interface. */
const CLOSED_REDIS_URL = 'redis://127.0.0.1:1';
const DEAD_DATABASE_URL = 'postgresql://postgres@127.0.0.1:1/nowhere';

/** A Prisma code (P2010), a SQLSTATE (57P03) or an errno name (ECONNREFUSED). */
const LIBRARY_CODE = /\b(P\d{4}|\d{2}[0-9A-Z]{3}|E[A-Z]{4,})\b/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const readiness = async (api: TTestApi) => {
  const response = await api.fetch('/readyz', { key: null });
  return { response, body: (await response.json()) as Record<string, unknown> };
};

/** Polls readiness until it reports `status` (the Redis client reconnects on its own schedule). */
const waitForReadiness = async (api: TTestApi, status: string) => {
  let last = '';
  for (let attempt = 0; attempt < 100; attempt += 1) {
    last = String((await readiness(api)).body.status);
    if (last === status) {
      return last;
    }
    await sleep(100);
  }
  return last;
};

describe('without Redis (limits per process, as configured)', () => {
  const api = useTestApi();

  it('GET /healthz: 200 without a key, never cached, with a request id', async () => {
    const response = await api.fetch('/healthz', { key: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /readyz: ok, with the database checked and the rate limits in memory', async () => {
    const { response, body } = await readiness(api);
    expect(response.status).toBe(200);
    expect(body).toEqual({
      status: 'ok',
      checks: {
        database: { status: 'ok', latencyMs: expect.any(Number) },
        rateLimits: { status: 'not_configured', backend: 'memory' },
      },
    });
  });

  it('probes are not rate limited and do not spend the budget of the address', async () => {
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, index) =>
        api.fetch(index % 2 ? '/healthz' : '/readyz', { key: null }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(80).fill(200));
    for (const response of responses) {
      expect(response.headers.has('x-ratelimit-limit')).toBe(false);
    }
    // Still the whole Free budget for this address: a key-less /v1 request is its first.
    const anonymous = await api.fetch('/v1/pets', { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('a valid key changes nothing and an invalid one is not refused', async () => {
    expect((await api.fetch('/healthz')).status).toBe(200);
    expect(
      (await api.fetch('/readyz', { key: null, headers: { authorization: 'Bearer nonsense' } }))
        .status,
    ).toBe(200);
  });

  it('another method: 405 with Allow and the error body', async () => {
    const response = await api.fetch('/readyz', { method: 'POST', key: null });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await errorBody(response)).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });
});

describe('with Redis', () => {
  it('ok while Redis answers', async () => {
    const api = await startTestApi({ env: { REDIS_URL }, rateLimit });
    try {
      const { response, body } = await readiness(api);
      expect(response.status).toBe(200);
      expect(body).toMatchObject({
        status: 'ok',
        checks: { database: { status: 'ok' }, rateLimits: { status: 'ok', backend: 'redis' } },
      });
    } finally {
      await api.close();
    }
  });

  it('Redis on a closed port: still 200, reported as degraded, and requests are served', async () => {
    const api = await startTestApi({ env: { REDIS_URL: CLOSED_REDIS_URL }, rateLimit });
    try {
      const { response, body } = await readiness(api);
      expect(response.status).toBe(200);
      expect(body).toEqual({
        status: 'degraded',
        checks: {
          database: { status: 'ok', latencyMs: expect.any(Number) },
          rateLimits: { status: 'degraded', backend: 'memory (redis unavailable)' },
        },
      });
      expect((await api.fetch('/v1/pets')).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('Redis lost and back: degraded during the outage, ok again without a restart', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const api = await startTestApi({ env: { REDIS_URL: `redis://127.0.0.1:${port}` }, rateLimit });
    try {
      expect((await readiness(api)).body.status).toBe('ok');
      redis.kill('SIGKILL');
      expect(await waitForReadiness(api, 'degraded')).toBe('degraded');
      redis = await startRedis(port);
      expect(await waitForReadiness(api, 'ok')).toBe('ok');
    } finally {
      await api.close();
      redis.kill('SIGKILL');
    }
  });
});

describe('database unreachable', () => {
  const api = useTestApi({ appDatabaseUrl: DEAD_DATABASE_URL });

  it('GET /readyz: 503 with the error body naming the database', async () => {
    const response = await api.fetch('/readyz', { key: null });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await errorBody(response);
    expect(body).toEqual({
      code: 'service_unavailable',
      status: 503,
      message: expect.stringMatching(/database/),
    });
    expect(body.message).not.toMatch(/127\.0\.0\.1|postgres(ql)?:/);
    // In our own words: no library's code (it said P2010), no SQLSTATE, no errno.
    expect(body.message).toBe('Not ready: the database cannot be reached.');
    expect(body.message).not.toMatch(LIBRARY_CODE);
    expect(response.headers.get('retry-after')).toBe('2');
  });

  it('GET /healthz: still 200, the process itself is alive', async () => {
    expect((await api.fetch('/healthz', { key: null })).status).toBe(200);
  });

  it("/readyz's 503 is logged as an expected refusal: warn, one line, no stack", async () => {
    const response = await api.fetch('/readyz', {
      key: null,
      headers: { 'x-request-id': 'ready-503' },
    });
    expect(response.status).toBe(503);
    await response.arrayBuffer();
    const lines = api.logs.filter((line) => line.reqId === 'ready-503' && line.msg !== 'request');
    // pino levels: 30 info, 40 warn, 50 error.
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'request refused', code: 'service_unavailable' }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/stack|"err"/);
    expect(api.logs.some((line) => line.msg === 'request failed')).toBe(false);
  });
});
