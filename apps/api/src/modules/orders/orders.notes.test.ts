import type { TOrderNote } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';
import { createPet, placedOrder } from './orders.test-support';

/** Staff notes on an application: private to staff keys, signed with the key's name. */

const api = useTestApi();
let partner: string;
let staff: string;
let colleague: string;
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Hamsters' } })).id);
  partner = await api.createKey({ name: 'partner' });
  staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  colleague = await api.createKey({ name: 'Vet nurse', role: 'staff' });
});

const notesUrl = (orderId: number) => `/v1/store/orders/${orderId}/notes`;

describe('staff notes on an application', () => {
  it('adds notes signed with the staff key name and lists them oldest first', async () => {
    const order = await placedOrder(api, partner, await createPet(api, staff, categoryId, 'Nib'));
    expect(await (await api.fetch(notesUrl(order.id), { key: staff })).json()).toEqual([]);
    const first = await api.fetch(
      notesUrl(order.id),
      json({ text: '  Called her: fenced garden.  ' }, { key: staff }),
    );
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({
      id: expect.any(Number),
      kind: 'note',
      text: 'Called her: fenced garden.',
      author: 'Front desk',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    await api.fetch(notesUrl(order.id), json({ text: 'Home visit fine.' }, { key: colleague }));
    const listed = (await (
      await api.fetch(notesUrl(order.id), { key: staff })
    ).json()) as TOrderNote[];
    expect(listed.map(({ author, text }) => `${author}: ${text}`)).toEqual([
      'Front desk: Called her: fenced garden.',
      'Vet nurse: Home visit fine.',
    ]);
    // Private: the order itself, as its partner reads it, carries none of it.
    const seen = await api.fetch(`/v1/store/orders/${order.id}`, { key: partner });
    expect(JSON.stringify(await seen.json())).not.toContain('fenced garden');
  });

  it('is for staff keys only, refuses an empty or long note, and 404s an unknown order', async () => {
    const order = await placedOrder(api, partner, await createPet(api, staff, categoryId, 'Pip'));
    for (const response of [
      await api.fetch(notesUrl(order.id), { key: partner }),
      await api.fetch(notesUrl(order.id), json({ text: 'Mine' }, { key: partner })),
    ]) {
      expect(response.status).toBe(403);
      expect((await errorBody(response)).code).toBe('forbidden');
    }
    for (const body of [{}, { text: '   ' }, { text: 'x'.repeat(2001) }, { text: 'a', extra: 1 }]) {
      const response = await api.fetch(notesUrl(order.id), json(body, { key: staff }));
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.fetch(notesUrl(987_654), { key: staff })).status).toBe(404);
    expect(
      (await api.fetch(notesUrl(987_654), json({ text: 'Lost' }, { key: staff }))).status,
    ).toBe(404);
    expect(await api.prisma.orderNote.count({ where: { orderId: BigInt(order.id) } })).toBe(0);
  });

  it('keeps at most 100 notes per application: 409 order_notes_full', async () => {
    const order = await placedOrder(api, partner, await createPet(api, staff, categoryId, 'Dot'));
    const staffKey = await api.prisma.apiKey.findFirstOrThrow({ where: { name: 'Front desk' } });
    await api.prisma.orderNote.createMany({
      data: Array.from({ length: 100 }, (_, index) => ({
        orderId: BigInt(order.id),
        apiKeyId: staffKey.id,
        author: 'Front desk',
        text: `Note ${index}`,
      })),
    });
    const full = await api.fetch(notesUrl(order.id), json({ text: 'One more' }, { key: staff }));
    expect(full.status).toBe(409);
    expect((await errorBody(full)).code).toBe('order_notes_full');
  });
});
