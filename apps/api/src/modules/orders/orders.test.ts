import { nextLinkTarget, type TOrder } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, useTestApi } from '../../test/api-harness';
import { createPet, placedOrder, transition } from './orders.test-support';

const api = useTestApi();
let key: string;
let otherKey: string;
let staff: string;
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Guinea pigs' } })).id);
  key = await api.createKey({ name: 'adopter' });
  otherKey = await api.createKey({ name: 'someone else' });
  staff = await api.createKey({ name: 'store', role: 'staff' });
});

type TOrderBody = TOrder;

describe('listOrders', () => {
  it('is empty for a new key', async () => {
    const response = await api.fetch('/v1/store/orders', { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it("lists only the caller's own orders, newest first, with the spec's limit and a status filter", async () => {
    // Five orders of this key, through the API: placed, approved, completed, cancelled, placed.
    const statuses = ['placed', 'approved', 'completed', 'cancelled', 'placed'] as const;
    const steps = {
      placed: [],
      approved: ['approve'],
      completed: ['approve', 'complete'],
      cancelled: ['cancel'],
    } as const;
    const petIds: number[] = [];
    for (const [index, status] of statuses.entries()) {
      const petId = await createPet(api, staff, categoryId, `Pet ${index}`);
      petIds.push(petId);
      const order = await placedOrder(api, key, petId);
      for (const action of steps[status]) {
        expect((await transition(api, staff, order.id, action)).status).toBe(200);
      }
    }
    await placedOrder(api, otherKey, await createPet(api, staff, categoryId, 'Theirs'));

    const all = (await (await api.fetch('/v1/store/orders', { key })).json()) as TOrderBody[];
    expect(all).toHaveLength(5);
    expect(all.map((order) => order.status)).toEqual([...statuses].reverse());
    expect(all.every((order, i) => i === 0 || (all[i - 1]?.id ?? 0) > order.id)).toBe(true);
    expect(all[0]).toEqual({
      id: expect.any(Number),
      petId: petIds[4],
      status: 'placed',
      placedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      adopter: { name: 'Ada Lovelace', email: 'ada@example.org' },
      history: [{ at: expect.any(String), to: 'placed', by: expect.stringMatching(/^pets_live_/) }],
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

  it('shows a staff key every order, filtered by petId and status, the filters kept by the cursor', async () => {
    const everyone = (await (
      await api.fetch('/v1/store/orders?limit=100', { key: staff })
    ).json()) as TOrderBody[];
    const mine = (await (
      await api.fetch('/v1/store/orders?limit=100', { key })
    ).json()) as TOrderBody[];
    const theirs = (await (
      await api.fetch('/v1/store/orders?limit=100', { key: otherKey })
    ).json()) as TOrderBody[];
    expect(everyone.map((order) => order.id).sort()).toEqual(
      [...mine, ...theirs].map((order) => order.id).sort(),
    );

    // Two orders for one animal: one cancelled, then a new one placed.
    const petId = await createPet(api, staff, categoryId, 'Popular');
    const first = await placedOrder(api, key, petId);
    await transition(api, key, first.id, 'cancel');
    const second = await placedOrder(api, otherKey, petId);
    const forPet = await api.fetch(`/v1/store/orders?petId=${petId}&limit=1`, { key: staff });
    expect(((await forPet.json()) as TOrderBody[]).map((order) => order.id)).toEqual([second.id]);
    const next = nextLinkTarget(forPet.headers.get('link'));
    expect(next).toMatch(/petId=/);
    const cursor = new URL(next ?? '', api.baseUrl).searchParams.get('cursor');
    const rest = await api.fetch(`/v1/store/orders?cursor=${cursor}`, { key: staff });
    expect(((await rest.json()) as TOrderBody[]).map((order) => order.id)).toEqual([first.id]);
    const cancelled = await api.fetch(`/v1/store/orders?petId=${petId}&status=cancelled`, {
      key: staff,
    });
    expect(((await cancelled.json()) as TOrderBody[]).map((order) => order.id)).toEqual([first.id]);
    // A partner's petId filter stays within its own orders.
    const partnerView = await api.fetch(`/v1/store/orders?petId=${petId}`, { key });
    expect(((await partnerView.json()) as TOrderBody[]).map((order) => order.id)).toEqual([
      first.id,
    ]);
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
