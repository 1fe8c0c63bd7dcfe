import { describe, expect, it } from 'vitest';
import { errorBody, json, startTestApi, type TTestApi, useTestApi } from '../test/api-harness';

const SHOP = 'https://shop.example';
const OTHER_SHOP = 'http://localhost:3000';
const STRANGER = 'https://evil.example';

const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'X-Request-Id',
  'Location',
  'Link',
  'Deprecation',
  'Sunset',
  'WWW-Authenticate',
  'Idempotent-Replayed',
  // The total of listPets (include=total_count), which a browser app shows.
  'X-Total-Count',
  // The version a browser app sends back in If-None-Match or If-Match.
  'ETag',
];

const expectJsonApiHeaders = (response: Response) => {
  const headers = response.headers;
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('content-security-policy')).toBe(
    "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
  );
  // An answer with an ETag may be kept by the client's cache, to be asked for again every time.
  expect(headers.get('cache-control')).toBe(headers.has('etag') ? 'private, no-cache' : 'no-store');
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(headers.has('x-powered-by')).toBe(false);
  expect(headers.has('x-xss-protection')).toBe(false);
  // Plain HTTP: HSTS means nothing here (see the proxy tests below).
  expect(headers.has('strict-transport-security')).toBe(false);
};

describe('security headers on every response', () => {
  const api = useTestApi();

  it.each([
    ['200 list', '/v1/pets', {}, 200],
    ['400 invalid body', '/v1/pets', json({ name: 'Pip', categoryId: 999_999 }), 400],
    ['401 without a key', '/v1/categories', { key: null }, 401],
    ['404 unknown route', '/v1/nowhere', {}, 404],
    ['404 outside /v1', '/robots.txt', { key: null }, 404],
    ['405 wrong method', '/v1/categories', { method: 'DELETE' }, 405],
    ['200 readiness', '/readyz', { key: null }, 200],
    ['200 OpenAPI document', '/v1/openapi.json', { key: null }, 200],
  ] as [string, string, RequestInit & { key?: null }, number][])(
    '%s',
    async (_label, path, init, status) => {
      const response = await api.fetch(path, init);
      expect(response.status).toBe(status);
      // Every 200 of a GET of the API carries its version; no error, and no probe, does.
      expect(response.headers.has('etag')).toBe(status === 200 && path.startsWith('/v1/'));
      expectJsonApiHeaders(response);
    },
  );

  it('CORS is off by default: no CORS headers, and a preflight is an ordinary 405', async () => {
    const simple = await api.fetch('/v1/pets', { headers: { origin: SHOP } });
    expect(simple.status).toBe(200);
    expect(simple.headers.has('access-control-allow-origin')).toBe(false);

    const preflight = await api.fetch('/v1/pets', {
      method: 'OPTIONS',
      key: null,
      headers: { origin: SHOP, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.has('access-control-allow-origin')).toBe(false);
    expect(await errorBody(preflight)).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });
});

describe('CORS for the configured origins', () => {
  const api = useTestApi({ env: { CORS_ORIGINS: `${SHOP}, ${OTHER_SHOP}` } });

  it('a listed origin may read the responses and every header of the contract', async () => {
    for (const origin of [SHOP, OTHER_SHOP]) {
      const response = await api.fetch('/v1/pets', { headers: { origin } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('vary')).toMatch(/origin/i);
      expect(response.headers.get('access-control-expose-headers')?.split(', ').sort()).toEqual(
        [...EXPOSED].sort(),
      );
      expect(response.headers.has('access-control-allow-credentials')).toBe(false);
    }
  });

  it('errors carry the CORS headers too, so a browser app can read 401 and 429 bodies', async () => {
    const response = await api.fetch('/v1/pets', { key: null, headers: { origin: SHOP } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('a preflight works without a key, is not rate limited, and allows what callers send', async () => {
    const remaining = async () =>
      Number(
        (await api.fetch('/v1/pets', { key: null, headers: { origin: SHOP } })).headers.get(
          'x-ratelimit-remaining',
        ),
      );
    const before = await remaining();
    const responses = await Promise.all(
      Array.from({ length: 70 }, () =>
        api.fetch('/v1/pets', {
          method: 'OPTIONS',
          key: null,
          headers: {
            origin: SHOP,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type, x-request-id',
          },
        }),
      ),
    );
    for (const response of responses) {
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(response.headers.get('access-control-allow-methods')).toBe(
        'GET, HEAD, POST, PATCH, PUT, DELETE',
      );
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'Authorization, Content-Type, X-Request-Id, Idempotency-Key, If-None-Match, If-Match',
      );
      expect(response.headers.get('access-control-max-age')).toBe('600');
      expect(response.headers.has('x-ratelimit-limit')).toBe(false);
    }
    // 70 preflights spent nothing of this address's budget.
    expect(await remaining()).toBe(before - 1);
  });

  it('an origin that is not listed gets no CORS headers, and its preflight a 405', async () => {
    const simple = await api.fetch('/v1/pets', { headers: { origin: STRANGER } });
    expect(simple.headers.has('access-control-allow-origin')).toBe(false);
    const preflight = await api.fetch('/v1/pets', {
      method: 'OPTIONS',
      key: null,
      headers: { origin: STRANGER, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.has('access-control-allow-origin')).toBe(false);
    expect(await errorBody(preflight)).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });
});

describe('behind a proxy (TRUSTED_PROXIES)', () => {
  const anonymousRemaining = async (api: TTestApi, forwardedFor: string) =>
    (
      await api.fetch('/v1/pets', { key: null, headers: { 'x-forwarded-for': forwardedFor } })
    ).headers.get('x-ratelimit-remaining');

  it('unset: X-Forwarded-For and X-Forwarded-Proto are ignored, so they cannot dodge limits', async () => {
    const api = await startTestApi();
    try {
      expect(await anonymousRemaining(api, '203.0.113.1')).toBe('59');
      expect(await anonymousRemaining(api, '203.0.113.2')).toBe('58');
      const response = await api.fetch('/v1/pets', { headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers.has('strict-transport-security')).toBe(false);
      expect(api.logs.filter((line) => line.msg === 'request').map((line) => line.ip)).toEqual([
        '127.0.0.1',
        '127.0.0.1',
        '127.0.0.1',
      ]);
    } finally {
      await api.close();
    }
  });

  it.each(['loopback', '1'])(
    'trusted (%s): each client address has its own budget, logs name it, HTTPS gets HSTS',
    async (trusted) => {
      const api = await startTestApi({ env: { TRUSTED_PROXIES: trusted } });
      try {
        expect(await anonymousRemaining(api, '203.0.113.1')).toBe('59');
        expect(await anonymousRemaining(api, '203.0.113.2')).toBe('59');
        expect(await anonymousRemaining(api, '203.0.113.1')).toBe('58');
        const secure = await api.fetch('/v1/pets', { headers: { 'x-forwarded-proto': 'https' } });
        expect(secure.headers.get('strict-transport-security')).toBe(
          'max-age=31536000; includeSubDomains',
        );
        const plain = await api.fetch('/v1/pets', { headers: { 'x-forwarded-proto': 'http' } });
        expect(plain.headers.has('strict-transport-security')).toBe(false);
        expect(api.logs.filter((line) => line.msg === 'request').map((line) => line.ip)).toContain(
          '203.0.113.2',
        );
      } finally {
        await api.close();
      }
    },
  );
});
