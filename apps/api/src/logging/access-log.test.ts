import { beforeAll, describe, expect, it } from 'vitest';
import { json, useTestApi } from '../test/api-harness';

/**
 * The operator's view: one structured access line per request, whatever happened to it, tied
 * to the X-Request-Id the caller saw, naming the key only by its display start; and no
 * Authorization value in any log line at any level.
 */

const ORIGIN = 'https://shop.example';
const api = useTestApi({ env: { LOG_LEVEL: 'trace', CORS_ORIGINS: ORIGIN } });
let key: string;
let freeKey: string;
let categoryId: number;

beforeAll(async () => {
  key = await api.createKey({ plan: 'business' });
  freeKey = await api.createKey({ plan: 'free' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Rabbits' } })).id);
});

const accessLines = (requestId: string) =>
  api.logs.filter((line) => line.msg === 'request' && line.reqId === requestId);

/** Waits for the line: onResponse runs just after the response is on its way. */
const accessLine = async (requestId: string) => {
  for (let attempt = 0; attempt < 50 && accessLines(requestId).length === 0; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return accessLines(requestId);
};

describe('one access line per request', () => {
  it.each([
    ['list with a key', 'GET', '/v1/pets', 200, '/v1/pets', 'key'],
    ['create with a key', 'POST', '/v1/pets', 201, '/v1/pets', 'key'],
    ['deprecated get, not found', 'GET', '/v1/pets/999999', 404, '/v1/pets/:petId', 'key'],
    ['no key', 'GET', '/v1/categories', 401, '/v1/categories', null],
    ['unknown route', 'GET', '/v1/nowhere', 404, null, 'key'],
    ['wrong method', 'DELETE', '/v1/categories', 405, null, 'key'],
    ['OpenAPI document', 'GET', '/v1/openapi.json', 200, '/v1/openapi.json', null],
    ['liveness', 'GET', '/healthz', 200, '/healthz', null],
    ['docs page', 'GET', '/docs', 200, '/docs', null],
  ] as const)('%s: %s %s → %i', async (label, method, path, status, route, caller) => {
    const requestId = `access-${label.replace(/\W+/g, '-')}`;
    const response = await api.fetch(path, {
      ...(method === 'POST' ? json({ name: 'Thumper', categoryId }) : { method }),
      key: caller === 'key' ? key : null,
      headers: {
        'x-request-id': requestId,
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    const lines = await accessLine(requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      reqId: requestId,
      method,
      route,
      status,
      latencyMs: expect.any(Number),
      ip: '127.0.0.1',
      apiKey: caller === 'key' ? key.slice(0, 14) : null,
    });
    expect(lines[0]?.latencyMs as number).toBeGreaterThanOrEqual(0);
  });

  it('a CORS preflight is logged too', async () => {
    const response = await api.fetch('/v1/pets', {
      method: 'OPTIONS',
      key: null,
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'x-request-id': 'access-preflight',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('x-request-id')).toBe('access-preflight');
    expect(await accessLine('access-preflight')).toEqual([
      expect.objectContaining({ method: 'OPTIONS', status: 204, apiKey: null }),
    ]);
  });

  it('a refused request (429) is logged with the key that was refused', async () => {
    let refused: Response | undefined;
    for (let index = 0; index < 61; index += 1) {
      refused = await api.fetch('/v1/pets?limit=1', {
        key: freeKey,
        headers: { 'x-request-id': `access-free-${index}` },
      });
    }
    expect(refused?.status).toBe(429);
    expect(await accessLine('access-free-60')).toEqual([
      expect.objectContaining({ status: 429, apiKey: freeKey.slice(0, 14) }),
    ]);
  });
});

describe('X-Request-Id', () => {
  it('generated when absent: a UUID, echoed, and the one in the access line', async () => {
    const response = await api.fetch('/v1/categories', { key: null });
    const requestId = response.headers.get('x-request-id') as string;
    expect(requestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(await accessLine(requestId)).toHaveLength(1);
  });

  it('replaced when it is not a plain token (it would end up in the logs)', async () => {
    for (const given of ['x'.repeat(129), 'a b', 'ünïcode', '{"json":1}']) {
      const response = await api.fetch('/healthz', {
        key: null,
        headers: { 'x-request-id': given },
      });
      const echoed = response.headers.get('x-request-id');
      expect(echoed).not.toBe(given);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = 'A-z.0_9:'.repeat(16);
    const kept = await api.fetch('/healthz', { key: null, headers: { 'x-request-id': longest } });
    expect(kept.headers.get('x-request-id')).toBe(longest);
  });

  it('two requests without one never share an id', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, async () =>
        (await api.fetch('/healthz', { key: null })).headers.get('x-request-id'),
      ),
    );
    expect(new Set(ids).size).toBe(20);
  });
});

describe('Authorization is redacted everywhere, even at trace level', () => {
  it('no value of the header reaches any log line', async () => {
    const secrets = [
      `Bearer ${key}`,
      'Bearer pets_live_notARealKeyButSecretAnyway123456',
      'Basic dXNlcjpzM2NyZXQtcGFzc3dvcmQ=',
      'Token s3cret-token-value',
    ];
    for (const authorization of secrets) {
      await api.fetch('/v1/pets', { key: null, headers: { authorization } });
      await api.fetch('/v1/nowhere', { key: null, headers: { authorization } });
      await api.fetch('/healthz', { key: null, headers: { authorization } });
      await api.fetch('/v1/pets', {
        ...json('{"broken":'),
        key: null,
        headers: { authorization, 'content-type': 'application/json' },
      });
    }
    const logs = api.rawLogs();
    expect(api.logs.some((line) => line.level === 10 || line.level === 20)).toBe(true);
    for (const secret of secrets) {
      expect(logs).not.toContain(secret.split(' ')[1]);
    }
    expect(logs).not.toContain(key.slice(14));
  });
});
