import { generateApiKey, hashApiKey } from '@pets/store/api-key-format';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../test/api-harness';

// The key cache's clock: real time plus what a test skips, so that no test waits for the cache.
let skippedMs = 0;
const keyCacheClock = () => performance.now() + skippedMs;
const api = useTestApi({ keyCache: { now: keyCacheClock } });
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Birds' } })).id);
});

const expectUnauthorized = async (response: Response) => {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer realm="pets"');
  const body = await errorBody(response);
  expect(body).toMatchObject({ code: 'unauthorized', status: 401 });
  return body;
};

const OPERATIONS: [string, string, RequestInit?][] = [
  ['listPets', '/v1/pets'],
  ['createPet', '/v1/pets', json({ name: 'Rex', categoryId: 1 })],
  ['getPet', '/v1/pets/1'],
  ['listOrders', '/v1/store/orders'],
  ['listCategories', '/v1/categories'],
];

describe('every operation needs a valid bearer key', () => {
  it.each(OPERATIONS)('%s without Authorization: 401', async (_name, path, init) => {
    const body = await expectUnauthorized(await api.fetch(path, { ...init, key: null }));
    expect(body.message).toMatch(/Bearer/);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['the key without a scheme', 'pets_live_0123456789abcdefghijABCDEFGHIJKL'],
    ['an empty bearer token', 'Bearer '],
    ['a bearer token of spaces', 'Bearer    '],
    ['something that is not a key', 'Bearer hunter2'],
    ['a well-formed key nobody issued', `Bearer ${generateApiKey('production').key}`],
  ])('%s: 401', async (_label, authorization) => {
    await expectUnauthorized(
      await api.fetch('/v1/pets', { key: null, headers: { authorization } }),
    );
  });

  it('the scheme is case-insensitive, as RFC 9110 says', async () => {
    const key = await api.createKey();
    const response = await api.fetch('/v1/pets', {
      key: null,
      headers: { authorization: `bearer ${key}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('401 comes before any validation of the input', () => {
  it('malformed JSON without a key: 401, not 400', async () => {
    await expectUnauthorized(await api.fetch('/v1/pets', { ...json('{"name":'), key: null }));
  });

  it('an invalid body with an unknown key: 401, not 400', async () => {
    await expectUnauthorized(
      await api.fetch('/v1/pets', { ...json({ name: '' }), key: generateApiKey('production').key }),
    );
  });

  it('a bad query and a bad path without a key: 401', async () => {
    await expectUnauthorized(await api.fetch('/v1/pets?limit=0', { key: null }));
    await expectUnauthorized(await api.fetch('/v1/pets/abc', { key: null }));
  });

  it('a body of the wrong media type without a key: 401, not 415', async () => {
    await expectUnauthorized(
      await api.fetch('/v1/pets', {
        method: 'POST',
        body: 'x',
        headers: { 'content-type': 'text/plain' },
        key: null,
      }),
    );
  });
});

describe('key lifecycle', () => {
  it('a new key works at once', async () => {
    const key = await api.createKey({ plan: 'free' });
    expect((await api.fetch('/v1/pets', { key })).status).toBe(200);
  });

  it('a revoked key stops working within 5 seconds', async () => {
    const key = await api.createKey();
    expect((await api.fetch('/v1/pets', { key })).status).toBe(200);
    const revokedAt = keyCacheClock();
    await api.apiKeys.revoke(key.slice(0, 14));
    let status = 200;
    while (status === 200 && keyCacheClock() - revokedAt < 6_000) {
      skippedMs += 100;
      status = (await api.fetch('/v1/pets', { key })).status;
    }
    expect(status).toBe(401);
    expect(keyCacheClock() - revokedAt).toBeLessThan(5_000);
    const body = await expectUnauthorized(await api.fetch('/v1/pets', { key }));
    expect(body.message).toMatch(/revoked/);
  });

  it('a burst on a key not seen yet looks it up once', async () => {
    const key = await api.createKey();
    const before = api.keyLookups();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.fetch('/v1/pets?limit=1', { key })),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(api.keyLookups() - before).toBe(1);
  });

  it('in the steady state, verifying a key costs no database round trip', async () => {
    const key = await api.createKey();
    await api.fetch('/v1/pets?limit=1', { key });
    const before = api.keyLookups();
    for (let i = 0; i < 20; i += 1) {
      expect((await api.fetch('/v1/pets?limit=1', { key })).status).toBe(200);
    }
    expect(api.keyLookups() - before).toBeLessThanOrEqual(1);
  });
});

describe('keys are secrets', () => {
  it('only a SHA-256 hash and a display start are stored', async () => {
    const key = await api.createKey({ name: 'stored' });
    const rows = await api.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT * FROM api_keys WHERE name = 'stored'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.hash).toBe(hashApiKey(key));
    expect(rows[0]?.start).toBe(key.slice(0, 14));
    const stored = JSON.stringify(rows, (_name, value) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(14));
  });

  it('no key, valid or not, ever appears in the logs', async () => {
    const key = await api.createKey();
    const bogus = generateApiKey('production').key;
    await api.fetch('/v1/pets', { key });
    await api.fetch('/v1/pets', json({ name: 'Tweety', categoryId }, { key } as RequestInit));
    await api.fetch('/v1/pets/1', { key });
    await api.fetch('/v1/pets', { key: bogus });
    await api.fetch('/v1/nowhere', { key });
    const logs = api.rawLogs();
    expect(logs).toContain(key.slice(0, 14));
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(key.slice(14));
    expect(logs).not.toContain(bogus.slice(10));
  });

  it('the access log names the caller by the display start only', async () => {
    const key = await api.createKey();
    await api.fetch('/v1/categories', { key, headers: { 'x-request-id': 'access-line' } });
    const line = api.logs.find((entry) => entry.reqId === 'access-line' && entry.msg === 'request');
    expect(line).toMatchObject({
      method: 'GET',
      route: '/v1/categories',
      status: 200,
      apiKey: key.slice(0, 14),
      latencyMs: expect.any(Number),
    });
  });
});
