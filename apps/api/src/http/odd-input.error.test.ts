import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, useTestApi } from '../test/api-harness';

/**
 * Odd input a probe found accepted: invalid UTF-8 inside a JSON string (stored as
 * U+FFFD), two Authorization headers (the first one won), an X-Request-Id that is not a plain
 * token (it is logged and echoed).
 */

const api = useTestApi();
let staffKey: string;
let categoryId: number;

beforeAll(async () => {
  staffKey = await api.createKey({ role: 'staff' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Hares' } })).id);
});

/** A raw request: node:http sends a header array as given, duplicates included (fetch merges). */
const rawRequest = (
  path: string,
  headers: string[],
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> =>
  new Promise((resolve, reject) => {
    const host = new URL(api.baseUrl).host;
    const all = ['Host', host, ...headers];
    const request = httpRequest(`${api.baseUrl}${path}`, { method, headers: all }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
      );
    });
    request.on('error', reject);
    request.end();
  });

describe('a JSON body that is not UTF-8', () => {
  it('is 400 invalid_request, and nothing is stored', async () => {
    const before = await api.prisma.pet.count();
    const body = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80]),
      Buffer.from(`","categoryId":${categoryId}}`),
    ]);
    const response = await api.fetch('/v1/pets', {
      method: 'POST',
      key: staffKey,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toEqual({
      code: 'invalid_request',
      status: 400,
      message: 'The request body is not valid UTF-8; send JSON encoded as UTF-8.',
    });
    expect(await api.prisma.pet.count()).toBe(before);
  });

  it('valid multi-byte UTF-8 is still accepted', async () => {
    const response = await api.fetch('/v1/pets', {
      method: 'POST',
      key: staffKey,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ name: 'Zoë 🐇', categoryId })),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { name: string }).name).toBe('Zoë 🐇');
  });
});

describe('two Authorization headers', () => {
  it.each([
    ['valid first', true],
    ['wrong first', false],
  ])('%s: refused either way, never first-wins', async (_label, isValidFirst) => {
    const valid = `Bearer ${staffKey}`;
    const wrong = 'Bearer pets_live_wrongwrongwrongwrongwrongwrongwrong';
    const [first, second] = isValidFirst ? [valid, wrong] : [wrong, valid];
    const response = await rawRequest('/v1/pets', [
      'Authorization',
      first,
      'authorization',
      second,
    ]);
    expect([400, 401]).toContain(response.status);
    const body = JSON.parse(response.body) as { code: string; status: number };
    expect(body.status).toBe(response.status);
    expect(body.code).toBe(response.status === 400 ? 'invalid_request' : 'unauthorized');
  });

  it('with the same valid key twice: still refused (400), with a message to act on', async () => {
    const valid = `Bearer ${staffKey}`;
    const response = await rawRequest('/v1/pets', ['Authorization', valid, 'Authorization', valid]);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      code: 'invalid_request',
      status: 400,
      message: 'The request carries several Authorization headers; send exactly one: Bearer <key>.',
    });
  });
});

describe('X-Request-Id', () => {
  it.each([
    '<script>alert(1)</script>',
    'two words',
    'x'.repeat(129),
    '../../etc/passwd',
    'ünïcode',
  ])('%j is neither echoed nor logged: a new id is generated', async (given) => {
    const response = await rawRequest('/v1/pets', [
      'Authorization',
      `Bearer ${staffKey}`,
      'X-Request-Id',
      given,
    ]);
    expect(response.status).toBe(200);
    const id = String(response.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(api.rawLogs()).not.toContain(given);
  });

  it('a plain token is used', async () => {
    const response = await api.fetch('/v1/pets', {
      key: staffKey,
      headers: { 'x-request-id': 'trace-42.a:b_c' },
    });
    expect(response.headers.get('x-request-id')).toBe('trace-42.a:b_c');
  });
});
