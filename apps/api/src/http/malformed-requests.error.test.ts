import { connect } from 'node:net';
import { ERROR_STATUS, ZError } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../test/api-harness';

// Requests that never reach a handler (the router refuses the path, Fastify the Content-Type,
// Node's parser the request) still get the spec's error body, a request id, and under /v1
// authentication, then the rate limit, then their own error (docs/errors.md).

const api = useTestApi();
let key: string;

beforeAll(async () => {
  key = await api.createKey({ plan: 'business' });
});

const expectLimited = (response: Response) => {
  expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
};

/** The spec's error body with the response's status and a documented code, and a request id. */
const expectError = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = ZError.parse(await response.json());
  expect(body).toMatchObject({ code, status });
  expect(ERROR_STATUS[body.code]).toBe(status);
  return body;
};

const LONG_ID = '1'.repeat(101);

describe('the router refuses the path: /v1/pets/%FF, a 101-digit id', () => {
  it.each(['/v1/pets/%FF', `/v1/pets/${LONG_ID}`, '/v1/pets/%C0%AF'])(
    '%s without a key: 401 with the rate-limit headers',
    async (path) => {
      const response = await api.fetch(path, { key: null });
      await expectError(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="pets"');
      expectLimited(response);
    },
  );

  it('a percent-encoding that is not UTF-8, with a key: 400 in our words', async () => {
    const response = await api.fetch('/v1/pets/%FF', { key });
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.message).not.toMatch(/FST_|url component/);
    expect(body.message).toMatch(/percent-encoded/);
    expectLimited(response);
    // The security headers of every response too.
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('a 101-digit id, with a key: the 400 of any id out of range, not a 414', async () => {
    const response = await api.fetch(`/v1/pets/${LONG_ID}`, { key });
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.details).toEqual([{ field: 'path.petId', message: 'petId is out of range' }]);
    expectLimited(response);
  });

  it('a client request id is kept', async () => {
    const response = await api.fetch('/v1/pets/%FF', {
      key,
      headers: { 'x-request-id': 'router-refusal-1' },
    });
    expect(response.headers.get('x-request-id')).toBe('router-refusal-1');
  });

  it('a limited key gets its 429 before the path is refused', async () => {
    const limited = await api.createKey({
      plan: 'enterprise',
      rateLimitPerMinute: 1,
      rateLimitPerDay: 100,
    });
    await expectError(await api.fetch('/v1/pets/%FF', { key: limited }), 400, 'invalid_request');
    const second = await api.fetch('/v1/pets/%FF', { key: limited });
    await expectError(second, 429, 'rate_limited');
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expectLimited(second);
  });
});

describe('/v1 itself and unknown /v1 routes: authentication first', () => {
  it.each(['/v1', '/v1/', '/v1?limit=1', '/v1/kittens', '/v1/pets/1/toys'])(
    '%s: 401 without a key, 404 with one, both rate limited',
    async (path) => {
      const anonymous = await api.fetch(path, { key: null });
      await expectError(anonymous, 401, 'unauthorized');
      expectLimited(anonymous);
      const keyed = await api.fetch(path, { key });
      await expectError(keyed, 404, 'not_found');
      expectLimited(keyed);
    },
  );

  it("a path of the contract with another method is known: the photos' GET is 405, Allow: POST", async () => {
    const keyed = await api.fetch('/v1/pets/1/photos', { key });
    await expectError(keyed, 405, 'method_not_allowed');
    expect(keyed.headers.get('allow')).toBe('POST');
  });

  it('a wrong method on a known path: 401 without a key, 405 with one', async () => {
    await expectError(
      await api.fetch('/v1/pets', { method: 'DELETE', key: null }),
      401,
      'unauthorized',
    );
    const keyed = await api.fetch('/v1/pets', { method: 'DELETE', key });
    await expectError(keyed, 405, 'method_not_allowed');
    expect(keyed.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('an unknown key is refused like a missing one', async () => {
    const response = await api.fetch('/v1', {
      key: null,
      headers: { authorization: 'Bearer pets_live_notAKeyAtAll000000000000000000' },
    });
    await expectError(response, 401, 'unauthorized');
  });

  it('outside /v1 nothing changes: 404 without a key or rate limit', async () => {
    const response = await api.fetch('/robots.txt', { key: null });
    await expectError(response, 404, 'not_found');
    expect(response.headers.has('x-ratelimit-limit')).toBe(false);
  });
});

describe('413 and 415, including a Content-Type Fastify cannot parse', () => {
  const bodies: [string, RequestInit][] = [
    [
      'an unparseable Content-Type',
      { method: 'POST', body: '{}', headers: { 'content-type': '/' } },
    ],
    [
      'a Content-Type without a subtype',
      { method: 'POST', body: '{}', headers: { 'content-type': 'json' } },
    ],
    ['text/plain', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }],
    ['a body over 16 KiB', json({ name: 'x'.repeat(20_000), categoryId: 1 })],
  ];

  it.each(bodies)('%s without a key: 401, rate limited', async (_label, init) => {
    const response = await api.fetch('/v1/pets', { ...init, key: null });
    await expectError(response, 401, 'unauthorized');
    expectLimited(response);
  });

  it.each(bodies.slice(0, 3))('%s with a key: 415, rate limited', async (_label, init) => {
    const response = await api.fetch('/v1/pets', { ...init, key });
    await expectError(response, 415, 'unsupported_media_type');
    expectLimited(response);
  });

  it('an unparseable Content-Type on an unknown /v1 route without a key: 401', async () => {
    const response = await api.fetch('/v1/kittens', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': '/' },
      key: null,
    });
    await expectError(response, 401, 'unauthorized');
    expectLimited(response);
  });
});

type TRawResponse = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after the response. */
  closed: boolean;
};

/** Sends raw bytes on a new connection and reads the first response (the server closes it). */
const sendRaw = (request: string | Buffer): Promise<TRawResponse> =>
  new Promise((resolve, reject) => {
    const { port, hostname } = new URL(api.baseUrl);
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closed,
      });
    };
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      closed = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      finish();
    });
    socket.on('error', (error) => {
      if (chunks.length === 0) {
        reject(error);
      }
    });
    socket.write(request);
  });

const expectRawError = (response: TRawResponse, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.body));
  expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.connection).toBe('close');
  expect(response.closed).toBe(true);
  const body = ZError.parse(JSON.parse(response.body));
  expect(body).toMatchObject({ code, status });
  expect(body.message).not.toMatch(/Client Error|Bad Request|HPE_|Exceeded maximum/);
};

describe('malformed HTTP: a complete response in the error format, then the connection closes', () => {
  const host = 'Host: localhost\r\n';
  it.each([
    [
      'a header line without a colon',
      `GET /v1/pets HTTP/1.1\r\n${host}bad header\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'NUL in a header value',
      `GET /v1/pets HTTP/1.1\r\n${host}X-A: a\0b\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'a bare CR in a header value',
      `GET /v1/pets HTTP/1.1\r\n${host}X-A: a\rb\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'a bare LF in a header name',
      `GET /v1/pets HTTP/1.1\r\n${host}X-\nA: b\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'a Transfer-Encoding not ending in chunked',
      `POST /v1/pets HTTP/1.1\r\n${host}Transfer-Encoding: chunked, gzip\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'Transfer-Encoding and Content-Length',
      `POST /v1/pets HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'a Content-Length that is no number',
      `POST /v1/pets HTTP/1.1\r\n${host}Content-Length: abc\r\n\r\n`,
      400,
      'invalid_request',
    ],
    [
      'a malformed chunk size',
      `POST /v1/pets HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n`,
      400,
      'invalid_request',
    ],
    ['no request line at all', 'garbage\r\n\r\n', 400, 'invalid_request'],
    [
      'headers over 16 KiB',
      `GET /v1/pets HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    ['a lower-case method', `get /v1/pets HTTP/1.1\r\n${host}\r\n`, 501, 'not_implemented'],
    ['an unknown method', `FROB /v1/pets HTTP/1.1\r\n${host}\r\n`, 501, 'not_implemented'],
  ] as const)('%s: %i %s', async (_label, request, status, code) => {
    expectRawError(await sendRaw(request), status, code);
  });

  it('a method Node knows but no route has (PROPFIND): authenticated, then 405 with Allow', async () => {
    const anonymous = await sendRaw(
      `PROPFIND /v1/pets HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    const keyed = await api.fetch('/v1/pets', { method: 'PROPFIND', key });
    await expectError(keyed, 405, 'method_not_allowed');
    expectLimited(keyed);
  });

  it('CONNECT (no tunnels here): 501 in the error format instead of a silent close', async () => {
    expectRawError(
      await sendRaw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      501,
      'not_implemented',
    );
  });

  it('QUERY without Content-Type: authenticated, then the 405 of a method no route has', async () => {
    const anonymous = await sendRaw(
      'QUERY /v1/pets HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    const keyed = await sendRaw(
      `QUERY /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(keyed.status).toBe(405);
    const body = ZError.parse(JSON.parse(keyed.body));
    expect(body).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(body.message).not.toMatch(/must provide/);
    expect(keyed.headers.allow).toBe('GET, HEAD, POST');
    expect(keyed.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  });

  it('no Host on HTTP/1.1: 401 without a key, then 400 with one, rate limited and with a body', async () => {
    const anonymous = await sendRaw('GET /v1/pets HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(anonymous.status).toBe(401);
    expect(ZError.parse(JSON.parse(anonymous.body)).code).toBe('unauthorized');
    expect(anonymous.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    const keyed = await sendRaw(
      `GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(keyed.status).toBe(400);
    expect(ZError.parse(JSON.parse(keyed.body))).toMatchObject({
      code: 'invalid_request',
      status: 400,
    });
    expect(JSON.parse(keyed.body).message).toMatch(/Host/);
    expect(keyed.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    expect(keyed.headers['x-request-id']).toBeDefined();
  });

  it('no Host on HTTP/1.0 is fine', async () => {
    const response = await sendRaw(`GET /v1/pets HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(response.status).toBe(200);
  });

  it('an unknown Expect is ignored (RFC 9110 allows it): the request is served as any other', async () => {
    const anonymous = await sendRaw(
      'GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nExpect: x\r\nConnection: close\r\n\r\n',
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    const keyed = await sendRaw(
      `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nExpect: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(keyed.status).toBe(200);
    expect(JSON.parse(keyed.body)).toEqual(expect.any(Array));
  });

  it('a connection refused as malformed does not affect the next one', async () => {
    await sendRaw('garbage\r\n\r\n');
    expect((await api.fetch('/v1/pets', { key })).status).toBe(200);
  });
});

describe('validation messages are ours, never zod’s', () => {
  it.each([
    ['/v1/pets?status=x', 'query.status', 'must be one of available, pending, sold'],
    ['/v1/pets?cursor=a&cursor=b', 'query.cursor', 'must be given once'],
    ['/v1/pets?status=sold&status=pending', 'query.status', 'must be given once'],
    ['/v1/pets?limit=1&limit=2', 'query.limit', 'limit must be an integer'],
    [
      '/v1/pets?id=1&id=2',
      'query.id',
      'id must be one id or up to 100 ids separated by commas, sent once',
    ],
    [
      '/v1/store/orders?status=adopted',
      'query.status',
      'must be one of unconfirmed, placed, waitlisted, approved, declined, completed, cancelled',
    ],
  ])('%s: %s %s', async (path, field, message) => {
    const response = await api.fetch(path, { key });
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.details).toEqual([{ field, message }]);
    expect(body.message).toBe(`${field}: ${message}`);
  });

  it.each([
    [
      { name: 'Rex', categoryId: 1, status: 'adopted' },
      'status',
      'must be one of available, pending, sold',
    ],
    [
      { name: 'Rex', categoryId: 1, status: 7 },
      'status',
      'must be one of available, pending, sold',
    ],
    [{ name: ['Rex'], categoryId: 1 }, 'name', 'must be a string'],
  ])('a body %j: %s %s', async (body, field, message) => {
    const response = await api.fetch('/v1/pets', { ...json(body), key } as RequestInit);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.details).toContainEqual({ field, message });
    expect(error.message).not.toMatch(/Invalid enum|Expected|received/);
  });
});

describe('text PostgreSQL cannot store: 400 with the field, never 500', () => {
  let categoryId: number;
  beforeAll(async () => {
    categoryId = Number((await api.prisma.category.create({ data: { name: 'Ferrets' } })).id);
  });

  it.each([
    ['a NUL character', '"Re\\u0000x"', 'must not contain the NUL character (U+0000)'],
    [
      'a lone high surrogate',
      '"Re\\ud800x"',
      'must be valid Unicode: it contains an unpaired surrogate (U+D800 to U+DFFF)',
    ],
    [
      'a lone low surrogate',
      '"\\udc00"',
      'must be valid Unicode: it contains an unpaired surrogate (U+D800 to U+DFFF)',
    ],
  ])('%s in a pet name', async (_label, name, message) => {
    const response = await api.fetch('/v1/pets', {
      ...json(`{"name":${name},"categoryId":${categoryId}}`),
      key,
    } as RequestInit);
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.details).toEqual([{ field: 'name', message }]);
  });

  it('a surrogate pair (an emoji) is a character like any other', async () => {
    const response = await api.fetch('/v1/pets', {
      ...json(`{"name":"Rex \\ud83d\\udc36","categoryId":${categoryId}}`),
      key,
    } as RequestInit);
    expect(response.status).toBe(201);
    expect(((await response.json()) as { name: string }).name).toBe('Rex 🐶');
  });

  it('without a key, 401 first', async () => {
    const response = await api.fetch('/v1/pets', { ...json('{"name":"a\\u0000"}'), key: null });
    expect((await errorBody(response)).code).toBe('unauthorized');
  });
});
