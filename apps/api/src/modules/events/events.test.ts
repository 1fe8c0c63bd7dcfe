import type { TEvent, TOrder, TPet } from '@pets/contract';
import { PgBoss } from 'pg-boss';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../../jobs/job-queue';
import { json, useTestApi } from '../../test/api-harness';
import { placedOrder, transition } from '../orders/orders.test-support';
import { plainPng } from '../photos/photos.test-support';

/**
 * Events, over real HTTP on a real PostgreSQL: every change of an animal or an adoption order is
 * recorded with it (in its transaction) with the resource as the API returned it, and listed by
 * `GET /v1/events` to the keys that may read that resource; kept 30 days.
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

const events = async (key: string, query = ''): Promise<TEvent[]> => {
  const response = await api.fetch(`/v1/events?limit=100${query}`, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as TEvent[];
};

/** The types of the events about one resource, oldest first. */
const typesFor = (list: TEvent[], kind: 'pet' | 'order', id: number) =>
  list
    .filter((event) => event.type.startsWith(`${kind}.`) && event.data.id === id)
    .reverse()
    .map((event) => event.type);

const newPet = async (name: string): Promise<TPet> => {
  const response = await api.fetch('/v1/pets', json({ name, categoryId }, { key: staff }));
  expect(response.status).toBe(201);
  return (await response.json()) as TPet;
};

describe('GET /v1/events', () => {
  it('records each change of an animal, with the animal as the API returned it', async () => {
    const pet = await newPet('Miso');
    const patched = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ breed: 'Tabby' }, { key: staff, method: 'PATCH' }),
    );
    expect(patched.status).toBe(200);
    const pending = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ status: 'pending' }, { key: staff, method: 'PATCH' }),
    );
    const afterStatus = (await pending.json()) as TPet;
    const png = await plainPng(64, 48);
    const upload = () =>
      api.fetch(`/v1/pets/${pet.id}/photos`, {
        key: staff,
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: png,
      });
    const first = (await (await upload()).json()) as { id: number };
    const second = (await (await upload()).json()) as { id: number };
    const reordered = await api.fetch(
      `/v1/pets/${pet.id}/photos/order`,
      json({ photoIds: [second.id, first.id] }, { key: staff, method: 'PUT' }),
    );
    expect(reordered.status).toBe(200);
    const removed = await api.fetch(`/v1/pets/${pet.id}/photos/${first.id}`, {
      key: staff,
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    // Refused changes record nothing.
    const refused = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ categoryId: 987_654 }, { key: staff, method: 'PATCH' }),
    );
    expect(refused.status).toBe(400);

    // Every key reads an animal's events.
    const seen = await events(otherPartner);
    expect(typesFor(seen, 'pet', pet.id)).toEqual([
      'pet.created',
      'pet.updated',
      'pet.updated',
      'pet.status_changed',
      'pet.photo_added',
      'pet.photo_added',
      'pet.updated',
      'pet.photo_removed',
    ]);
    const statusChanged = seen.find(
      (event) => event.type === 'pet.status_changed' && event.data.id === pet.id,
    );
    expect(statusChanged?.data).toEqual(afterStatus);
    expect(statusChanged?.id).toMatch(/^evt_\d+$/);
    const created = seen.find((event) => event.type === 'pet.created' && event.data.id === pet.id);
    expect(created?.data).toEqual(pet);
    const last = seen.find(
      (event) => event.type === 'pet.photo_removed' && event.data.id === pet.id,
    );
    expect(last?.type === 'pet.photo_removed' && last.data.photos.map((photo) => photo.id)).toEqual(
      [second.id],
    );
  });

  it("shows an order's events to the key that placed it and to staff, and what it did to the animal", async () => {
    const pet = await newPet('Biscuit');
    const ada = await placedOrder(api, partner, pet.id, {
      adopter: { name: 'Ada', email: 'ada.events@example.org' },
    });
    const bo = await placedOrder(api, otherPartner, pet.id, {
      adopter: { name: 'Bo', email: 'bo.events@example.org' },
    });
    expect((await transition(api, staff, ada.id, 'approve')).status).toBe(200);
    const completed = await transition(api, staff, ada.id, 'complete');
    const completedOrder = (await completed.json()) as TOrder;

    const forStaff = await events(staff);
    expect(typesFor(forStaff, 'order', ada.id)).toEqual([
      'order.placed',
      'order.approved',
      'order.completed',
    ]);
    expect(typesFor(forStaff, 'order', bo.id)).toEqual([
      'order.placed',
      'order.waitlisted',
      'order.declined',
    ]);
    expect(
      forStaff.find((event) => event.type === 'order.completed' && event.data.id === ada.id)?.data,
    ).toEqual(completedOrder);
    // The animal went on hold, then home: the orders' transactions recorded it too.
    const petStatuses = forStaff
      .filter((event) => event.type === 'pet.status_changed' && event.data.id === pet.id)
      .reverse()
      .map((event) => (event.data as TPet).status);
    expect(petStatuses).toEqual(['pending', 'sold']);

    // A partner reads its own orders' events, never another's (they carry the adopter's details).
    const forPartner = await events(partner);
    expect(typesFor(forPartner, 'order', ada.id)).toHaveLength(3);
    expect(typesFor(forPartner, 'order', bo.id)).toEqual([]);
    const forOther = await events(otherPartner);
    expect(typesFor(forOther, 'order', ada.id)).toEqual([]);
    expect(typesFor(forOther, 'order', bo.id)).toHaveLength(3);
  });

  it('filters by type, since and after, and pages with the filters kept', async () => {
    const before = (await events(staff))[0]?.id ?? 'evt_1';
    const since = new Date().toISOString();
    const names = ['Pip', 'Pod', 'Pea'];
    const created: TPet[] = [];
    for (const name of names) {
      created.push(await newPet(name));
    }
    const afterOnly = await events(partner, `&after=${before}`);
    expect(afterOnly.map((event) => event.data.id)).toEqual(created.map((pet) => pet.id).reverse());
    const sinceOnly = await events(partner, `&since=${since}&type=pet.created`);
    expect(sinceOnly.map((event) => event.data.id)).toEqual(created.map((pet) => pet.id).reverse());

    // Two a page: the next page's link keeps the filters.
    const first = await api.fetch(`/v1/events?type=pet.created&after=${before}&limit=2`, {
      key: partner,
    });
    expect(((await first.json()) as TEvent[]).map((event) => event.data.id)).toEqual([
      created[2]?.id,
      created[1]?.id,
    ]);
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    expect(next).toMatch(/^\/v1\/events\?/);
    const second = await api.fetch(next ?? '', { key: partner });
    expect(((await second.json()) as TEvent[]).map((event) => event.data.id)).toEqual([
      created[0]?.id,
    ]);
    expect(second.headers.get('link')).toBeNull();

    for (const query of ['type=pet.eaten', 'since=yesterday', 'after=7', 'after=evt_0']) {
      const refused = await api.fetch(`/v1/events?${query}`, { key: partner });
      expect(refused.status, query).toBe(400);
    }
  });

  it('keeps events 30 days: the daily schedule deletes older ones', async () => {
    const pet = await newPet('Old Tom');
    const [latest] = await events(staff, '&type=pet.created');
    expect(latest?.data.id).toBe(pet.id);
    const id = BigInt((latest?.id ?? 'evt_0').slice(4));
    await api.prisma.event.update({
      where: { id },
      data: { createdAt: new Date(Date.now() - 31 * 86_400_000) },
    });
    const boss = new PgBoss({
      connectionString: api.database.url,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.send(QUEUES.pruneEvents, {});
    await boss.stop({ graceful: false });
    const deadline = Date.now() + 30_000;
    while (await api.prisma.event.findUnique({ where: { id } })) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await events(staff)).some((event) => event.id === latest?.id)).toBe(false);
  });
});
