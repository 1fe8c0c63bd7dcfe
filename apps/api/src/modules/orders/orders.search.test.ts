import { nextLinkTarget, type TOrder } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, useTestApi } from '../../test/api-harness';
import { createPet, placedOrder } from './orders.test-support';

/**
 * listOrders' `q`, the back office's search box, over real HTTP on real PostgreSQL: an adopter's
 * name (the start of each word, any order and case), their whole email address (any case), or
 * the application's reference; with the other filters, on a partner's own orders, through the
 * pages' cursor. And what an application says of the household, as the adopter wrote it.
 */

const api = useTestApi();
let staff: string;
let partner: string;
let otherPartner: string;
let petId: number;
let otherPetId: number;
let ann: TOrder;
let annAgain: TOrder;
let bo: TOrder;
let joanna: TOrder;

const adopter = (name: string, email: string) => ({ adopter: { name, email } });

beforeAll(async () => {
  const categoryId = Number((await api.prisma.category.create({ data: { name: 'Ferrets' } })).id);
  staff = await api.createKey({ name: 'store', role: 'staff' });
  partner = await api.createKey({ name: 'partner' });
  otherPartner = await api.createKey({ name: 'other partner' });
  petId = await createPet(api, staff, categoryId, 'Noodle');
  otherPetId = await createPet(api, staff, categoryId, 'Pesto');
  ann = await placedOrder(api, partner, petId, adopter('Ann Ortiz', 'Ann.Ortiz@Example.org'));
  annAgain = await placedOrder(
    api,
    otherPartner,
    otherPetId,
    adopter('Ann Ortiz', 'ann.ortiz@example.org'),
  );
  bo = await placedOrder(api, partner, petId, adopter('Bo Bramble', 'bo@example.org'));
  joanna = await placedOrder(api, partner, otherPetId, adopter('Joanna Annick', 'jo@example.org'));
});

const idsOf = async (query: string, key = staff): Promise<number[]> => {
  const response = await api.fetch(`/v1/store/orders?${query}`, { key });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as TOrder[]).map((order) => order.id);
};

describe('listOrders: q finds applications', () => {
  it('by the starts of the words of the adopter name, in any order and case, newest first', async () => {
    expect(await idsOf('q=ann')).toEqual([joanna.id, annAgain.id, ann.id].sort((a, b) => b - a));
    expect(await idsOf(`q=${encodeURIComponent('ORT an')}`)).toEqual([annAgain.id, ann.id]);
    expect(await idsOf('q=bram')).toEqual([bo.id]);
    // A word inside a word is not the start of one.
    expect(await idsOf('q=rtiz')).toEqual([]);
  });

  it('by the whole email address, in any case', async () => {
    expect(await idsOf(`q=${encodeURIComponent(' ANN.ortiz@example.ORG ')}`)).toEqual([
      annAgain.id,
      ann.id,
    ]);
    // Part of an address is not an address.
    expect(await idsOf(`q=${encodeURIComponent('ann.ortiz@')}`)).toEqual([]);
  });

  it('by the reference the adopter was given, however it is typed', async () => {
    for (const typed of [`A-${bo.id}`, `a${bo.id}`, `#${bo.id}`, String(bo.id)]) {
      expect(await idsOf(`q=${encodeURIComponent(typed)}`), typed).toEqual([bo.id]);
    }
  });

  it('with the other filters, and within a partner’s own orders', async () => {
    expect(await idsOf(`q=ann&petId=${petId}`)).toEqual([ann.id]);
    expect(await idsOf('q=ann&status=approved')).toEqual([]);
    expect(await idsOf('q=ann', partner)).toEqual([joanna.id, ann.id]);
    expect(await idsOf(`q=A-${annAgain.id}`, partner)).toEqual([]);
  });

  it('page by page: the cursor carries the search, and refuses another one', async () => {
    const first = await api.fetch('/v1/store/orders?q=ann&limit=2', { key: staff });
    expect(((await first.json()) as TOrder[]).map((order) => order.id)).toEqual([
      joanna.id,
      annAgain.id,
    ]);
    const next = nextLinkTarget(first.headers.get('link'));
    expect(next).toBeDefined();
    const second = await api.fetch(next ?? '', { key: staff });
    expect(((await second.json()) as TOrder[]).map((order) => order.id)).toEqual([ann.id]);
    const cursor = new URL(next ?? '', 'http://x').searchParams.get('cursor') ?? '';
    const other = await api.fetch(`/v1/store/orders?q=bo&cursor=${cursor}`, { key: staff });
    expect(other.status).toBe(400);
    expect((await errorBody(other)).details?.[0]?.field).toBe('query.cursor');
  });

  it.each([
    ['q=', 'empty'],
    [`q=${encodeURIComponent('-- !')}`, 'no letter or digit'],
    [`q=${'a'.repeat(255)}`, 'too long'],
  ])('%s (%s): 400 in words naming q', async (query) => {
    const response = await api.fetch(`/v1/store/orders?${query}`, { key: staff });
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.code).toBe('invalid_request');
    expect(body.details?.[0]?.field).toBe('query.q');
    expect(body.message).toMatch(/^query\.q: q must /);
  });
});

describe('an application’s household and other animals', () => {
  it('are kept as the adopter wrote them, trimmed; empty or absent is none', async () => {
    const placed = await placedOrder(api, partner, otherPetId, {
      ...adopter('Cleo Park', 'cleo@example.org'),
      household: '  Two adults and a 7-year-old; a house with a garden ',
      otherAnimals: 'A 10-year-old cat',
    });
    expect(placed).toMatchObject({
      household: 'Two adults and a 7-year-old; a house with a garden',
      otherAnimals: 'A 10-year-old cat',
    });
    const read = await api.fetch(`/v1/store/orders/${placed.id}`, { key: staff });
    expect(await read.json()).toMatchObject({ otherAnimals: 'A 10-year-old cat' });
    const without = await placedOrder(api, partner, otherPetId, {
      ...adopter('Dev Patel', 'dev@example.org'),
      household: ' ',
    });
    expect('household' in without || 'otherAnimals' in without).toBe(false);
  });

  it('are refused past 200 characters, naming the field', async () => {
    const response = await api.fetch('/v1/store/orders', {
      method: 'POST',
      key: partner,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        petId: otherPetId,
        ...adopter('Eve Long', 'eve@example.org'),
        otherAnimals: 'x'.repeat(201),
      }),
    });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).details?.[0]?.field).toBe('otherAnimals');
  });
});
