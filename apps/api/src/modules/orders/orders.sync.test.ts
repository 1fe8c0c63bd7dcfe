import type { TOrder } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, useTestApi } from '../../test/api-harness';
import { nextPageOf, walkPages } from '../../test/pages';
import { createPet, placedOrder, transition } from './orders.test-support';

/**
 * listOrders' `updatedSince` and `sort=updatedAt`, over real HTTP: a partner walks what changed
 * among its own orders (a staff key among all), while the store keeps acting on them.
 */

const api = useTestApi();
let staff: string;
let partner: string;
let otherPartner: string;
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff', plan: 'business' });
  partner = await api.createKey({ name: 'Partner', plan: 'business' });
  otherPartner = await api.createKey({ name: 'Other partner', plan: 'business' });
});

/** An order of `key` for a new animal (one adopter per animal: no open-order conflicts). */
const newOrder = async (key: string, name: string): Promise<TOrder> =>
  placedOrder(api, key, await createPet(api, staff, categoryId, name));

const decline = async (order: TOrder): Promise<TOrder> => {
  const response = await transition(api, staff, order.id, 'decline');
  expect(response.status).toBe(200);
  return (await response.json()) as TOrder;
};

const expectWalkOrder = (orders: TOrder[]) => {
  for (let index = 1; index < orders.length; index++) {
    const [previous, current] = [orders[index - 1] as TOrder, orders[index] as TOrder];
    expect(
      previous.updatedAt < current.updatedAt ||
        (previous.updatedAt === current.updatedAt && previous.id < current.id),
    ).toBe(true);
  }
};

describe('listOrders: updatedSince and sort=updatedAt', () => {
  it("lists a partner's orders changed since T, oldest change first, and a staff key's all of them", async () => {
    const [a, b, c] = [
      await newOrder(partner, 'A'),
      await newOrder(partner, 'B'),
      await newOrder(partner, 'C'),
    ];
    const theirs = await newOrder(otherPartner, 'D');
    const declinedA = await decline(a);
    expect(Date.parse(declinedA.updatedAt)).toBeGreaterThan(Date.parse(a.updatedAt));
    const since = b.updatedAt;
    const mine = await walkPages<TOrder>(
      api,
      partner,
      `/v1/store/orders?sort=updatedAt&updatedSince=${since}&limit=1`,
    );
    // A, placed before T, is in it once: as it was declined after T, at the end. D is not ours.
    expect(mine.map((order) => order.id)).toEqual([b.id, c.id, a.id]);
    expect(mine.at(-1)?.status).toBe('declined');
    expectWalkOrder(mine);
    const all = await walkPages<TOrder>(
      api,
      staff,
      `/v1/store/orders?sort=updatedAt&updatedSince=${since}&limit=2`,
    );
    expect(all.map((order) => order.id)).toEqual([b.id, c.id, theirs.id, a.id]);
    // The status filter keeps the sort in the cursor.
    const declined = await walkPages<TOrder>(
      api,
      staff,
      `/v1/store/orders?sort=updatedAt&status=declined&updatedSince=${since}&limit=1`,
    );
    expect(declined.map((order) => order.id)).toEqual([a.id]);
    // The default order stays newest first.
    const newest = await walkPages<TOrder>(api, partner, `/v1/store/orders?updatedSince=${since}`);
    expect(newest.map((order) => order.id)).toEqual([a.id, c.id, b.id].sort((x, y) => y - x));
  });

  it('refuses an updatedSince that is not RFC 3339, and a cursor sent with another one', async () => {
    for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '2026-11-27']) {
      const response = await api.fetch(`/v1/store/orders?updatedSince=${bad}`, { key: partner });
      expect(response.status, bad).toBe(400);
      expect((await errorBody(response)).code).toBe('invalid_request');
    }
    await newOrder(partner, 'E');
    const first = await api.fetch('/v1/store/orders?sort=updatedAt&limit=1', { key: partner });
    const next = nextPageOf(api, first);
    expect(next).not.toBeNull();
    const cursor = new URL(next as string, api.baseUrl).searchParams.get('cursor');
    const other = await api.fetch(
      `/v1/store/orders?cursor=${cursor}&updatedSince=2020-01-01T00:00:00Z`,
      { key: partner },
    );
    expect(other.status).toBe(400);
  });

  it('sees every order changed since T at least once while the store declines orders during the walk', async () => {
    const orders: TOrder[] = [];
    for (let index = 0; index < 16; index++) {
      orders.push(await newOrder(partner, `Walk ${index}`));
    }
    const since = (orders[0] as TOrder).updatedAt;
    // After each page the store declines one order behind the walk and one ahead of it.
    const pending = [...orders];
    const writer = async () => {
      for (const order of [pending.shift(), pending.pop()]) {
        if (order) {
          await decline(order);
        }
      }
    };
    const seen = await walkPages<TOrder>(
      api,
      partner,
      `/v1/store/orders?sort=updatedAt&updatedSince=${since}&limit=3`,
      writer,
    );
    const seenIds = new Set(seen.map((order) => order.id));
    for (const order of orders) {
      expect(seenIds.has(order.id), `order ${order.id}`).toBe(true);
    }
    // Declined behind the walk: seen again at the end, declined.
    expect(seen.length).toBeGreaterThan(orders.length);
    const lastSeen = new Map(seen.map((order) => [order.id, order]));
    const first = orders[0] as TOrder;
    expect(lastSeen.get(first.id)?.status).toBe('declined');
  });

  it('answers 304 to a page asked for again with its ETag while no order on it changed', async () => {
    const order = await newOrder(partner, 'Etag');
    const path = `/v1/store/orders?petId=${order.petId}`;
    const page = await api.fetch(path, { key: partner });
    const etag = page.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const same = await api.fetch(path, { key: partner, headers: { 'If-None-Match': etag } });
    expect(same.status).toBe(304);
    await decline(order);
    const changed = await api.fetch(path, { key: partner, headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
  });
});
