import { encodeCursor, nextLinkTarget } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, useTestApi } from '../../test/api-harness';
import { expectedPet } from '../../test/pets';

type TPetBody = { id: number; name: string; categoryId: number; status: string };

// A staff key by default: these animals are published pending or sold too (partners: available).
const api = useTestApi({ defaultKey: { role: 'staff' } });
let dogs: number;
let cats: number;
/** Ids of the pets this file created, newest first. */
let created: TPetBody[];

const STATUSES = ['available', 'pending', 'sold'] as const;

const nextLink = (response: Response): string | null =>
  nextLinkTarget(response.headers.get('link')) ?? null;

beforeAll(async () => {
  dogs = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  cats = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
  created = [];
  for (let i = 0; i < 45; i += 1) {
    const response = await api.fetch(
      '/v1/pets',
      json({ name: `Pet ${i}`, categoryId: i % 2 ? cats : dogs, status: STATUSES[i % 3] }),
    );
    created.unshift((await response.json()) as TPetBody);
  }
});

describe('listPets', () => {
  it('returns 20 pets by default, newest first', async () => {
    const response = await api.fetch('/v1/pets');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as TPetBody[];
    expect(body).toEqual(created.slice(0, 20));
  });

  it.each([1, 7, 100])('returns at most limit=%i pets', async (limit) => {
    const response = await api.fetch(`/v1/pets?limit=${limit}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(created.slice(0, limit));
  });

  it.each(STATUSES)('filters by status=%s', async (status) => {
    const response = await api.fetch(`/v1/pets?status=${status}&limit=100`);
    const body = (await response.json()) as TPetBody[];
    expect(body).toEqual(created.filter((pet) => pet.status === status));
    expect(body.length).toBeGreaterThan(0);
  });

  it('filters by categoryId, alone and with status, paging with the filters kept', async () => {
    const response = await api.fetch(`/v1/pets?categoryId=${cats}&limit=100`);
    expect(await response.json()).toEqual(created.filter((pet) => pet.categoryId === cats));
    const both = await api.fetch(`/v1/pets?categoryId=${dogs}&status=sold&limit=3`);
    const expected = created.filter((pet) => pet.categoryId === dogs && pet.status === 'sold');
    expect(await both.json()).toEqual(expected.slice(0, 3));
    const next = nextLinkTarget(both.headers.get('link')) ?? '';
    expect(new URL(next, api.baseUrl).searchParams.get('categoryId')).toBe(String(dogs));
    expect(await (await api.fetch(next)).json()).toEqual(expected.slice(3, 6));
  });

  it('an unknown categoryId is an empty list, not an error', async () => {
    const response = await api.fetch(`/v1/pets?categoryId=${cats + 1000}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it('pages through every pet exactly once by following rel="next"', async () => {
    const seen: TPetBody[] = [];
    let path: string | null = '/v1/pets?limit=10';
    let pages = 0;
    while (path) {
      const response = await api.fetch(path);
      expect(response.status).toBe(200);
      seen.push(...((await response.json()) as TPetBody[]));
      path = nextLink(response);
      pages += 1;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(created);
  });

  it('keeps limit and status in the next link, and the last page has none', async () => {
    const first = await api.fetch('/v1/pets?status=sold&limit=10');
    const link = nextLink(first);
    expect(link).toMatch(/^\/v1\/pets\?/);
    const params = new URL(link ?? '', api.baseUrl).searchParams;
    expect(params.get('status')).toBe('sold');
    expect(params.get('limit')).toBe('10');
    const second = await api.fetch(link ?? '');
    expect(await second.json()).toEqual(created.filter((pet) => pet.status === 'sold').slice(10));
    expect(second.headers.get('link')).toBeNull();
  });

  it('sends no next link when everything fits on one page', async () => {
    const response = await api.fetch('/v1/pets?limit=100');
    expect(response.headers.get('link')).toBeNull();
  });
});

describe('listPets: the cursor keeps the filters of its list', () => {
  const cursorOf = (response: Response): string =>
    new URL(nextLink(response) ?? '', api.baseUrl).searchParams.get('cursor') ?? '';

  it('a cursor from a status=pending page, sent alone, continues the pending list', async () => {
    const pending = created.filter((pet) => pet.status === 'pending');
    const first = await api.fetch('/v1/pets?status=pending&limit=4');
    expect(await first.json()).toEqual(pending.slice(0, 4));
    const second = await api.fetch(`/v1/pets?limit=4&cursor=${cursorOf(first)}`);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(pending.slice(4, 8));
    // Its own next link continues the same list too.
    const third = await api.fetch(nextLink(second) ?? '');
    expect(await third.json()).toEqual(pending.slice(8, 12));
  });

  it('carries categoryId and status together, and the same filters may be repeated', async () => {
    const expected = created.filter((pet) => pet.categoryId === cats && pet.status === 'sold');
    const first = await api.fetch(`/v1/pets?status=sold&categoryId=${cats}&limit=2`);
    expect(await first.json()).toEqual(expected.slice(0, 2));
    const cursor = cursorOf(first);
    for (const query of [`cursor=${cursor}`, `status=sold&cursor=${cursor}`]) {
      const response = await api.fetch(`/v1/pets?limit=2&${query}`);
      expect(await response.json()).toEqual(expected.slice(2, 4));
    }
  });

  it('a cursor issued before (v1, no filters carried) keeps its meaning: the filters sent apply', async () => {
    const sold = created.filter((pet) => pet.status === 'sold');
    const below = sold[2] as TPetBody;
    const response = await api.fetch(
      `/v1/pets?status=sold&limit=3&cursor=${encodeCursor(below.id)}`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(sold.slice(3, 6));
    // Its next link is a cursor of the new kind: it continues the same list when sent alone.
    const next = cursorOf(response);
    expect(next).not.toBe(encodeCursor((sold[5] as TPetBody).id));
    expect(await (await api.fetch(`/v1/pets?limit=3&cursor=${next}`)).json()).toEqual(
      sold.slice(6, 9),
    );
  });
});

describe('listPets: the id filter', () => {
  it('one id: a list of that animal', async () => {
    const pet = created[7] as TPetBody;
    const response = await api.fetch(`/v1/pets?id=${pet.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([pet]);
    expect(response.headers.get('link')).toBeNull();
  });

  it('several ids, newest first; repeated and unknown ids are no error', async () => {
    const [a, b, c] = [created[30], created[2], created[11]] as [TPetBody, TPetBody, TPetBody];
    const ids = [a.id, b.id, c.id, b.id, 987_654_321].join(',');
    const response = await api.fetch(`/v1/pets?id=${ids}`);
    expect(await response.json()).toEqual([b, c, a]);
    expect(await (await api.fetch('/v1/pets?id=987654321')).json()).toEqual([]);
  });

  it('combines with status and categoryId', async () => {
    const some = created.slice(0, 12);
    const ids = some.map((pet) => pet.id).join(',');
    const response = await api.fetch(`/v1/pets?id=${ids}&status=available&categoryId=${dogs}`);
    expect(await response.json()).toEqual(
      some.filter((pet) => pet.status === 'available' && pet.categoryId === dogs),
    );
  });

  it('takes 100 ids, and pages through them; the cursor alone keeps the ids', async () => {
    const ids = [...created.map((pet) => pet.id), ...Array.from({ length: 55 }, (_, i) => i + 9e6)];
    expect(ids).toHaveLength(100);
    const first = await api.fetch(`/v1/pets?id=${ids.join(',')}&limit=20`);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual(created.slice(0, 20));
    const link = nextLink(first) ?? '';
    expect(await (await api.fetch(link)).json()).toEqual(created.slice(20, 40));
    const cursor = new URL(link, api.baseUrl).searchParams.get('cursor') ?? '';
    const alone = await api.fetch(`/v1/pets?limit=20&cursor=${cursor}`);
    expect(await alone.json()).toEqual(created.slice(20, 40));
  });
});

describe('createPet', () => {
  it('answers 201 with the pet, its id and a Location that fetches it', async () => {
    const response = await api.fetch(
      '/v1/pets',
      json({ name: 'Biscuit', categoryId: dogs, status: 'pending' }),
    );
    expect(response.status).toBe(201);
    const pet = (await response.json()) as TPetBody;
    // An animal nobody has described: the profile is there, unknown, and no photos yet.
    expect(pet).toEqual(expectedPet({ name: 'Biscuit', categoryId: dogs, status: 'pending' }));
    expect(response.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
    const fetched = await api.fetch(response.headers.get('location') ?? '');
    expect(await fetched.json()).toEqual(pet);
  });

  it('defaults status to available', async () => {
    const response = await api.fetch('/v1/pets', json({ name: 'Mittens', categoryId: cats }));
    expect(response.status).toBe(201);
    expect(((await response.json()) as TPetBody).status).toBe('available');
  });

  it('trims the name and puts the new pet first in the list', async () => {
    const response = await api.fetch('/v1/pets', json({ name: '  Pebble  ', categoryId: cats }));
    const pet = (await response.json()) as TPetBody;
    expect(pet.name).toBe('Pebble');
    const list = (await (await api.fetch('/v1/pets?limit=1')).json()) as TPetBody[];
    expect(list).toEqual([pet]);
  });

  it('accepts a charset on the JSON content type', async () => {
    const response = await api.fetch('/v1/pets', {
      ...json({ name: 'Clover', categoryId: cats }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
  });
});

describe('getPet (deprecated)', () => {
  it('returns the pet and announces the deprecation', async () => {
    const pet = created[3] as TPetBody;
    const response = await api.fetch(`/v1/pets/${pet.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(pet);
    expect(response.headers.get('deprecation')).toBe('@1795392000');
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.get('link')).toBe(`</v1/pets?id=${pet.id}>; rel="successor-version"`);
  });

  it('its successor-version link is the list with the id filter, which gives the same animal', async () => {
    const pet = created[5] as TPetBody;
    const response = await api.fetch(`/v1/pets/${pet.id}`);
    const successor = (response.headers.get('link') ?? '').match(/^<([^>]+)>/)?.[1] ?? '';
    const replaced = await api.fetch(successor);
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual([pet]);
    expect(replaced.headers.get('deprecation')).toBeNull();
  });

  it('counts deprecated calls per key in the logs', async () => {
    const key = await api.createKey({ name: 'legacy client' });
    const pet = created[0] as TPetBody;
    await api.fetch(`/v1/pets/${pet.id}`, { key });
    await api.fetch(`/v1/pets/${pet.id}`, { key });
    const start = key.slice(0, 14);
    const lines = api.logs.filter(
      (line) => line.event === 'deprecated_operation' && line.apiKey === start,
    );
    expect(lines.map((line) => line.calls)).toEqual([1, 2]);
    expect(lines[0]?.operation).toBe('getPet');
  });
});

describe('listCategories', () => {
  it('lists every category with the id to send as categoryId', async () => {
    const response = await api.fetch('/v1/categories');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { id: cats, name: 'Cats' },
      { id: dogs, name: 'Dogs' },
    ]);
  });
});

describe('every response', () => {
  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const given = await api.fetch('/v1/pets?limit=1', { headers: { 'x-request-id': 'trace-42' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    const generated = await api.fetch('/v1/pets?limit=1', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
