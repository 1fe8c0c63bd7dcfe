import { nextLinkTarget } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../api-keys/api-key-format';
import { errorBody, useTestApi } from '../../test/api-harness';

const api = useTestApi();
let key: string;
let otherKey: string;
let petIds: bigint[];

const keyId = async (plaintext: string) =>
  (await api.prisma.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(plaintext) } })).id;

beforeAll(async () => {
  const category = await api.prisma.category.create({ data: { name: 'Guinea pigs' } });
  petIds = [];
  for (const name of ['Nibbles', 'Peanut', 'Waffles']) {
    petIds.push((await api.prisma.pet.create({ data: { name, categoryId: category.id } })).id);
  }
  key = await api.createKey({ name: 'adopter' });
  otherKey = await api.createKey({ name: 'someone else' });
});

type TOrderBody = { id: number; petId: number; status: string; placedAt: string };

describe('listOrders', () => {
  it('is empty for a new key', async () => {
    const response = await api.fetch('/v1/store/orders', { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it("lists only the caller's own orders, newest first, with the spec's limit and a status filter", async () => {
    const mine = await keyId(key);
    const theirs = await keyId(otherKey);
    const statuses = ['placed', 'approved', 'completed', 'cancelled', 'placed'] as const;
    for (const [index, status] of statuses.entries()) {
      await api.prisma.order.create({
        data: { apiKeyId: mine, petId: petIds[index % petIds.length] as bigint, status },
      });
    }
    await api.prisma.order.create({ data: { apiKeyId: theirs, petId: petIds[0] as bigint } });

    const all = (await (await api.fetch('/v1/store/orders', { key })).json()) as TOrderBody[];
    expect(all).toHaveLength(5);
    expect(all.map((order) => order.status)).toEqual([...statuses].reverse());
    expect(all.every((order, i) => i === 0 || (all[i - 1]?.id ?? 0) > order.id)).toBe(true);
    expect(all[0]).toEqual({
      id: expect.any(Number),
      petId: Number(petIds[1]),
      status: 'placed',
      placedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const placed = (await (
      await api.fetch('/v1/store/orders?status=placed', { key })
    ).json()) as TOrderBody[];
    expect(placed.map((order) => order.status)).toEqual(['placed', 'placed']);

    const limited = await api.fetch('/v1/store/orders?limit=2', { key });
    expect(await limited.json()).toEqual(all.slice(0, 2));
    const next = nextLinkTarget(limited.headers.get('link'));
    expect(next).toMatch(/^\/v1\/store\/orders\?limit=2&cursor=/);
    expect(await (await api.fetch(next ?? '', { key })).json()).toEqual(all.slice(2, 4));

    // The cursor keeps the status filter of its list: sent alone it continues that list, sent
    // with another status it is refused.
    const firstPlaced = await api.fetch('/v1/store/orders?status=placed&limit=1', { key });
    const cursor = new URL(
      nextLinkTarget(firstPlaced.headers.get('link')) ?? '',
      api.baseUrl,
    ).searchParams.get('cursor');
    expect(await (await api.fetch(`/v1/store/orders?cursor=${cursor}`, { key })).json()).toEqual([
      placed[1],
    ]);
    const mismatch = await api.fetch(`/v1/store/orders?status=approved&cursor=${cursor}`, {
      key,
    });
    expect(mismatch.status).toBe(400);
    expect(await errorBody(mismatch)).toMatchObject({
      code: 'invalid_request',
      details: [{ field: 'query.cursor', message: expect.stringMatching(/status=placed/) }],
    });

    const theirsList = (await (
      await api.fetch('/v1/store/orders', { key: otherKey })
    ).json()) as TOrderBody[];
    expect(theirsList).toHaveLength(1);
  });

  it.each(['0', '101', 'x'])('rejects limit=%s with 400', async (limit) => {
    const response = await api.fetch(`/v1/store/orders?limit=${limit}`, { key });
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('rejects an unknown order status with 400', async () => {
    const response = await api.fetch('/v1/store/orders?status=sold', { key });
    expect(response.status).toBe(400);
  });
});
