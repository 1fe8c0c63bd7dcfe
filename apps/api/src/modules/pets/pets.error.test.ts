import { encodeCursor, PETS_CURSOR, type TPetsListFilters } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, startTestApi, useTestApi } from '../../test/api-harness';

const api = useTestApi();
let categoryId: number;
let petId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Rabbits' } })).id);
  petId = Number(
    (await api.prisma.pet.create({ data: { name: 'Thumper', categoryId: BigInt(categoryId) } })).id,
  );
});

/** Every failure: the spec's body, status equal to the HTTP status, nothing internal. */
const expectError = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await errorBody(response);
  expect(body).toMatchObject({ code, status, message: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/\s{2}at |node_modules|prisma|Error:|stack|\.ts:\d/i);
  return body;
};

describe('listPets rejects bad query values with 400', () => {
  it.each(['0', '101', '-1', 'abc', '1.5', '1e1', ''])('limit=%j', async (limit) => {
    const body = await expectError(
      await api.fetch(`/v1/pets?limit=${limit}`),
      400,
      'invalid_request',
    );
    expect(body.details?.[0]?.field).toBe('query.limit');
  });

  it.each(['adopted', 'AVAILABLE', ''])('status=%j', async (status) => {
    const body = await expectError(
      await api.fetch(`/v1/pets?status=${status}`),
      400,
      'invalid_request',
    );
    expect(body.details?.[0]?.field).toBe('query.status');
  });

  it.each(['0', 'dogs', '2.5'])('categoryId=%j', async (categoryId) => {
    const body = await expectError(
      await api.fetch(`/v1/pets?categoryId=${categoryId}`),
      400,
      'invalid_request',
    );
    expect(body.details?.[0]?.field).toBe('query.categoryId');
  });

  it('a cursor it did not issue', async () => {
    const body = await expectError(
      await api.fetch('/v1/pets?cursor=not-a-cursor'),
      400,
      'invalid_request',
    );
    expect(body.details?.[0]?.field).toBe('query.cursor');
  });

  it.each([
    ['abc', /^id must be one id or up to 100 ids separated by commas; "abc" is not an integer$/],
    ['1,,2', /; "" is not an integer$/],
    ['0', /; "0" is not a positive integer$/],
    ['9007199254740992', /is out of range$/],
    [Array.from({ length: 101 }, (_, i) => i + 1).join(','), /; got 101$/],
    ['', /^id must not be empty$/],
  ])('id=%j', async (id, message) => {
    const body = await expectError(await api.fetch(`/v1/pets?id=${id}`), 400, 'invalid_request');
    expect(body.details).toEqual([{ field: 'query.id', message: expect.stringMatching(message) }]);
  });

  it('id sent twice', async () => {
    const body = await expectError(await api.fetch('/v1/pets?id=1&id=2'), 400, 'invalid_request');
    expect(body.details?.[0]).toEqual({
      field: 'query.id',
      message: 'id must be one id or up to 100 ids separated by commas, sent once',
    });
  });

  it.each<[string, TPetsListFilters, string, RegExp]>([
    ['another status', { status: 'pending' }, 'status=sold', /with status=pending: send it/],
    ['a status it had none of', {}, 'status=sold', /belongs to a list without status/],
    ['another category', { categoryId: 5 }, 'categoryId=6', /with categoryId=5/],
    ['other ids', { id: [9, 3] }, 'id=3,9,10', /with id=9,3/],
    ['ids it had none of', { status: 'sold' }, 'id=4&status=sold', /without id/],
  ])('a cursor sent with %s', async (_label, issued, query, message) => {
    const cursor = PETS_CURSOR.encode(petId, issued);
    const body = await expectError(
      await api.fetch(`/v1/pets?${query}&cursor=${cursor}`),
      400,
      'invalid_request',
    );
    expect(body.details).toEqual([
      { field: 'query.cursor', message: expect.stringMatching(message) },
    ]);
  });

  it.each([
    ['a status not in the enum', Buffer.from('v2:9:adopted::').toString('base64url')],
    ['ids out of order', Buffer.from('v2:9:::3,9').toString('base64url')],
    ['a filter too many', Buffer.from('v2:9::::').toString('base64url')],
    ['an id of 0', Buffer.from('v2:0:::').toString('base64url')],
    ['a first-format cursor with a leading zero', Buffer.from('v1:09').toString('base64url')],
    ['padding', `${encodeCursor(9)}=`],
  ])('a cursor it did not issue: %s', async (_label, cursor) => {
    const body = await expectError(
      await api.fetch(`/v1/pets?cursor=${cursor}`),
      400,
      'invalid_request',
    );
    expect(body.details?.[0]?.field).toBe('query.cursor');
  });

  it('reports every bad parameter at once', async () => {
    const body = await expectError(
      await api.fetch('/v1/pets?limit=500&status=x'),
      400,
      'invalid_request',
    );
    expect(body.details?.map((detail) => detail.field)).toEqual(['query.limit', 'query.status']);
  });
});

describe('createPet rejects bad bodies, never with a 500', () => {
  it.each([
    ['a missing name', { categoryId: 1 }, 'name'],
    ['an empty name', { name: '', categoryId: 1 }, 'name'],
    ['a blank name', { name: '   ', categoryId: 1 }, 'name'],
    ['a numeric name', { name: 12, categoryId: 1 }, 'name'],
    ['a missing categoryId', { name: 'Rex' }, 'categoryId'],
    ['a string categoryId', { name: 'Rex', categoryId: '1' }, 'categoryId'],
    ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, 'categoryId'],
    ['an unsafe categoryId', { name: 'Rex', categoryId: 2 ** 53 + 2 }, 'categoryId'],
    ['an unknown status', { name: 'Rex', categoryId: 1, status: 'adopted' }, 'status'],
    ['an unknown field', { name: 'Rex', categoryId: 1, id: 7 }, 'id'],
  ])('%s', async (_label, body, field) => {
    const error = await expectError(
      await api.fetch('/v1/pets', json(body)),
      400,
      'invalid_request',
    );
    expect(error.details?.map((detail) => detail.field)).toContain(field);
  });

  it('a categoryId that names no category', async () => {
    const error = await expectError(
      await api.fetch('/v1/pets', json({ name: 'Rex', categoryId: categoryId + 1000 })),
      400,
      'invalid_request',
    );
    expect(error.details).toEqual([
      { field: 'categoryId', message: expect.stringMatching(/no category/) },
    ]);
  });

  it.each([
    ['malformed JSON', '{"name": "Rex",'],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['a JSON string', '"Rex"'],
    ['JSON null', 'null'],
  ])('%s', async (_label, raw) => {
    await expectError(await api.fetch('/v1/pets', json(raw)), 400, 'invalid_request');
  });

  it('no body at all', async () => {
    await expectError(await api.fetch('/v1/pets', { method: 'POST' }), 400, 'invalid_request');
  });

  it('a body that is not JSON: 415', async () => {
    await expectError(
      await api.fetch('/v1/pets', {
        method: 'POST',
        body: 'name=Rex&categoryId=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
    await expectError(
      await api.fetch('/v1/pets', {
        method: 'POST',
        body: '{"name":"Rex","categoryId":1}',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('a body over 16 KiB: 413', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(17 * 1024), categoryId });
    await expectError(await api.fetch('/v1/pets', json(body)), 413, 'payload_too_large');
  });

  it('a prototype-poisoning body', async () => {
    const raw = `{"name":"Rex","categoryId":${categoryId},"__proto__":{"admin":true}}`;
    await expectError(await api.fetch('/v1/pets', json(raw)), 400, 'invalid_request');
  });
});

describe('getPet', () => {
  it('404 for an id that names no animal, still announcing the deprecation', async () => {
    const response = await api.fetch(`/v1/pets/${petId + 1000}`);
    await expectError(response, 404, 'not_found');
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.get('deprecation')).toBe('@1795392000');
  });

  it.each(['abc', '1.5', '0', '-3', '9007199254740992', '99999999999999999999999', '1e3', '%20'])(
    'an error body, not a 500, for petId=%s',
    async (id) => {
      const body = await expectError(await api.fetch(`/v1/pets/${id}`), 400, 'invalid_request');
      expect(body.details?.[0]?.field).toBe('path.petId');
    },
  );
});

describe('routes and methods', () => {
  it('404 not_found for an unknown route', async () => {
    await expectError(await api.fetch('/v1/unicorns'), 404, 'not_found');
    await expectError(await api.fetch('/v2/pets'), 404, 'not_found');
  });

  it('405 with Allow for a known path and the wrong method', async () => {
    const response = await api.fetch('/v1/pets/1', { method: 'DELETE' });
    await expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET, HEAD, PATCH');
    const put = await api.fetch('/v1/pets', { method: 'PUT' });
    await expectError(put, 405, 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('failures on our side', () => {
  it('500 internal_error with nothing internal when a query fails unexpectedly', async () => {
    await api.prisma.$executeRawUnsafe('ALTER TABLE categories RENAME COLUMN name TO name_broken');
    try {
      const body = await expectError(await api.fetch('/v1/categories'), 500, 'internal_error');
      expect(body.message).toBe('Something went wrong on our side.');
      const logged = api.logs.find((line) => line.msg === 'request failed');
      expect(logged).toBeDefined();
    } finally {
      await api.prisma.$executeRawUnsafe(
        'ALTER TABLE categories RENAME COLUMN name_broken TO name',
      );
    }
  });
});

describe('the database out of reach', () => {
  it('503 service_unavailable, with nothing internal', async () => {
    const outage = await startTestApi({ appDatabaseUrl: 'postgresql://postgres@127.0.0.1:1/none' });
    try {
      const key = await outage.createKey();
      await expectError(await outage.fetch('/v1/pets', { key }), 503, 'service_unavailable');
      // An outage is logged one warning line per request, in our words, without a stack trace.
      expect(outage.logs.filter((line) => line.msg === 'request failed')).toEqual([]);
      const warned = outage.logs.filter((line) => line.msg === 'database unavailable');
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ level: 40, fault: 'the database cannot be reached' });
      expect(JSON.stringify(warned[0])).not.toMatch(/ECONNREFUSED|stack|127\.0\.0\.1:1/);
    } finally {
      await outage.close();
    }
  });
});
