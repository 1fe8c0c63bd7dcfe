import type { TOrder } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';
import {
  createPet,
  petOf,
  petStatus,
  placedOrder,
  placeOrder,
  transition,
} from './orders.test-support';

/**
 * Many applications for one animal, over real HTTP on real PostgreSQL: placing leaves the animal
 * alone, approving one holds it and waitlists the others, a fallen-through approval frees it with
 * the waitlist kept, completing declines the rest; the public count follows every step.
 */

const api = useTestApi();
let partner: string;
let otherPartner: string;
let staff: string;
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Guinea pigs' } })).id);
  partner = await api.createKey({ name: 'partner' });
  otherPartner = await api.createKey({ name: 'other partner' });
  staff = await api.createKey({ name: 'store', role: 'staff' });
});

const newPet = (name = 'Pepper') => createPet(api, staff, categoryId, name);

const adopter = (name: string) => ({
  adopter: { name, email: `${name.toLowerCase()}@example.org` },
});

const statusOf = async (orderId: number) =>
  ((await (await api.fetch(`/v1/store/orders/${orderId}`, { key: staff })).json()) as TOrder)
    .status;

const orderOf = async (orderId: number) =>
  (await (await api.fetch(`/v1/store/orders/${orderId}`, { key: staff })).json()) as TOrder;

const startOf = async (name: string) =>
  (await api.prisma.apiKey.findFirstOrThrow({ where: { name } })).start;

describe('many applications for one animal', () => {
  it('two adopters apply; approve one, cancel it, approve the waitlisted one, complete', async () => {
    const petId = await newPet();
    const ada = await placedOrder(api, partner, petId, adopter('Ada'));
    const bo = await placedOrder(api, otherPartner, petId, adopter('Bo'));
    expect(await petStatus(api, petId)).toBe('available');
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(2);

    // Approve Ada: the animal is on hold for her, Bo waits in line.
    const approved = await transition(api, staff, ada.id, 'approve');
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as TOrder).status).toBe('approved');
    expect(await petStatus(api, petId)).toBe('pending');
    const waiting = await orderOf(bo.id);
    expect(waiting.status).toBe('waitlisted');
    // The side effect is in Bo's history too, by the key that approved Ada.
    expect(waiting.history.at(-1)).toEqual({
      at: waiting.updatedAt,
      from: 'placed',
      to: 'waitlisted',
      by: await startOf('store'),
    });
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(1);
    // Nobody new may apply while the animal is on hold.
    const late = await placeOrder(api, partner, petId, adopter('Cy'));
    expect(late.status).toBe(409);
    expect((await errorBody(late)).code).toBe('pet_not_available');

    // Ada withdraws: the animal is available again, Bo stays in line.
    expect((await transition(api, partner, ada.id, 'cancel')).status).toBe(200);
    expect(await petStatus(api, petId)).toBe('available');
    expect(await statusOf(bo.id)).toBe('waitlisted');
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(1);

    // A newcomer may apply again; approving Bo (from the waitlist) waitlists the newcomer.
    const cy = await placedOrder(api, partner, petId, adopter('Cy'));
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(2);
    expect((await transition(api, staff, bo.id, 'approve')).status).toBe(200);
    expect(await statusOf(cy.id)).toBe('waitlisted');
    expect(await petStatus(api, petId)).toBe('pending');

    // Bo takes the animal home: every other open application is declined, kindly worded.
    const completed = await transition(api, staff, bo.id, 'complete');
    expect(completed.status).toBe(200);
    expect(await petStatus(api, petId)).toBe('sold');
    const closed = await orderOf(cy.id);
    expect(closed).toMatchObject({
      status: 'declined',
      declineReason: 'adopted_by_another_family',
    });
    expect(closed).not.toHaveProperty('declineNote');
    expect(closed.history.map(({ to }) => to)).toEqual(['placed', 'waitlisted', 'declined']);
    expect(await statusOf(ada.id)).toBe('cancelled');
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(0);
    // Bo's history is the longest walk: placed, waitlisted, approved, completed.
    expect((await orderOf(bo.id)).history.map(({ to }) => to)).toEqual([
      'placed',
      'waitlisted',
      'approved',
      'completed',
    ]);
  });

  it('approves a second order only while the animal is available: 409 pet_not_available', async () => {
    const petId = await newPet();
    const ada = await placedOrder(api, partner, petId, adopter('Ada'));
    const bo = await placedOrder(api, partner, petId, adopter('Bo'));
    expect((await transition(api, staff, ada.id, 'approve')).status).toBe(200);
    const second = await transition(api, staff, bo.id, 'approve');
    expect(second.status).toBe(409);
    expect(await errorBody(second)).toMatchObject({ code: 'pet_not_available', status: 409 });
    expect(await statusOf(bo.id)).toBe('waitlisted');
    // An animal the store set aside by hand cannot be approved either.
    const other = await newPet('Set aside');
    const dee = await placedOrder(api, partner, other, adopter('Dee'));
    const patched = await api.fetch(
      `/v1/pets/${other}`,
      json({ status: 'pending' }, { key: staff, method: 'PATCH' }),
    );
    expect(patched.status).toBe(200);
    expect((await transition(api, staff, dee.id, 'approve')).status).toBe(409);
    expect(await statusOf(dee.id)).toBe('placed');
  });

  it('keeps the animal pending while an approval holds it: updatePet 409 pet_status_conflict', async () => {
    const petId = await newPet();
    const ada = await placedOrder(api, partner, petId, adopter('Ada'));
    const free = await api.fetch(
      `/v1/pets/${petId}`,
      json({ status: 'pending' }, { key: staff, method: 'PATCH' }),
    );
    expect(free.status).toBe(200);
    await api.fetch(
      `/v1/pets/${petId}`,
      json({ status: 'available' }, { key: staff, method: 'PATCH' }),
    );
    expect((await transition(api, staff, ada.id, 'approve')).status).toBe(200);
    const held = await api.fetch(
      `/v1/pets/${petId}`,
      json({ status: 'available' }, { key: staff, method: 'PATCH' }),
    );
    expect(held.status).toBe(409);
    expect((await errorBody(held)).code).toBe('pet_status_conflict');
  });
});

describe('placeOrder with many applications', () => {
  it('one open application per adopter email and animal, whatever its case: 409 order_already_open', async () => {
    const petId = await newPet();
    await placedOrder(api, partner, petId, adopter('Ada'));
    const again = await placeOrder(api, otherPartner, petId, {
      adopter: { name: 'Ada L.', email: 'ADA@Example.org' },
    });
    expect(again.status).toBe(409);
    const body = await errorBody(again);
    expect(body).toMatchObject({ code: 'order_already_open', status: 409 });
    // Nothing about the other order: not its id, not who placed it.
    expect(body.message).not.toMatch(/pets_live|pets_test|order \d/i);
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(1);
    // Another animal, or the same adopter once the first application is closed, is fine.
    expect((await placeOrder(api, partner, await newPet('Other'), adopter('Ada'))).status).toBe(
      201,
    );
    const [open] = await api.prisma.order.findMany({ where: { petId: BigInt(petId) } });
    expect((await transition(api, staff, Number(open?.id), 'decline')).status).toBe(200);
    expect((await placeOrder(api, partner, petId, adopter('Ada'))).status).toBe(201);
  });

  it('409 pet_not_available only for an animal that is pending or sold', async () => {
    for (const status of ['pending', 'sold'] as const) {
      const response = await api.fetch(
        '/v1/pets',
        json({ name: `Already ${status}`, categoryId, status }, { key: staff }),
      );
      const { id } = (await response.json()) as { id: number };
      const refused = await placeOrder(api, partner, id, adopter('Ada'));
      expect(refused.status).toBe(409);
      expect(await errorBody(refused)).toMatchObject({
        code: 'pet_not_available',
        message: expect.stringContaining(`is ${status}`),
      });
      expect((await petOf(api, staff, id)).applicationsInReview).toBe(0);
    }
  });
});

describe('declineOrder', () => {
  it('records the reason and the note, shows them on the order, and frees an approved animal', async () => {
    const petId = await newPet();
    const ada = await placedOrder(api, partner, petId, adopter('Ada'));
    const bo = await placedOrder(api, partner, petId, adopter('Bo'));
    expect((await transition(api, staff, ada.id, 'approve')).status).toBe(200);
    const response = await transition(api, staff, ada.id, 'decline', {
      reason: 'home_not_suitable',
      note: '  Pepper needs a garden; we hope you find a friend soon.  ',
    });
    expect(response.status).toBe(200);
    const declined = (await response.json()) as TOrder;
    expect(declined).toMatchObject({
      status: 'declined',
      declineReason: 'home_not_suitable',
      declineNote: 'Pepper needs a garden; we hope you find a friend soon.',
    });
    expect(declined.history.map(({ to }) => to)).toEqual(['placed', 'approved', 'declined']);
    // The partner that placed it sees the reason too.
    const seen = await api.fetch(`/v1/store/orders/${ada.id}`, { key: partner });
    expect(await seen.json()).toEqual(declined);
    expect(await petStatus(api, petId)).toBe('available');
    expect(await statusOf(bo.id)).toBe('waitlisted');
    // An empty note is no note.
    const plain = await transition(api, staff, bo.id, 'decline', {
      reason: 'no_response',
      note: ' ',
    });
    expect(await plain.json()).not.toHaveProperty('declineNote');
    expect((await petOf(api, staff, petId)).applicationsInReview).toBe(0);
  });

  it('refuses a body without a known reason or with a note over 1000 characters: 400, nothing changed', async () => {
    const petId = await newPet();
    const ada = await placedOrder(api, partner, petId, adopter('Ada'));
    for (const body of [
      {},
      { reason: 'because' },
      { reason: 'other', note: 'x'.repeat(1001) },
      { reason: 'other', note: 7 },
      { reason: 'other', extra: true },
    ]) {
      const response = await transition(api, staff, ada.id, 'decline', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorBody(response)).code).toBe('invalid_request');
    }
    const none = await api.fetch(`/v1/store/orders/${ada.id}/decline`, {
      method: 'POST',
      key: staff,
    });
    expect(none.status).toBe(400);
    expect(await statusOf(ada.id)).toBe('placed');
    // A partner may not decline, even its own order: 403 before the body is looked at.
    const partnerTry = await transition(api, partner, ada.id, 'decline', { reason: 'other' });
    expect(partnerTry.status).toBe(403);
  });
});
