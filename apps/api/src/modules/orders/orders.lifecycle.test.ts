import type { TOrder, TOrderAction } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';
import {
  ADOPTER,
  createPet,
  DECLINE,
  petStatus,
  placedOrder,
  placeOrder,
  transition,
} from './orders.test-support';

/**
 * The order lifecycle over real HTTP: placeOrder, getOrder and every transition, allowed or
 * not, for both roles, with the animal's status checked after each step, for one application
 * (orders.applications.test.ts has several for one animal).
 */

const api = useTestApi();
let partner: string;
let otherPartner: string;
let staff: string;
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Rabbits' } })).id);
  partner = await api.createKey({ name: 'partner' });
  otherPartner = await api.createKey({ name: 'other partner' });
  staff = await api.createKey({ name: 'store', role: 'staff' });
});

const newPet = (name = 'Clover') => createPet(api, staff, categoryId, name);

const startOf = async (key: string) =>
  (await api.prisma.apiKey.findFirstOrThrow({ where: { name: key } })).start;

describe('placeOrder', () => {
  it('creates the order (201, Location) and leaves the animal available', async () => {
    const petId = await newPet();
    const response = await placeOrder(api, partner, petId, {
      adopter: { ...ADOPTER, phone: '+44 20 7946 0958' },
      message: '  We have a garden. ',
    });
    expect(response.status).toBe(201);
    const order = (await response.json()) as TOrder;
    expect(response.headers.get('location')).toBe(`/v1/store/orders/${order.id}`);
    expect(order).toEqual({
      id: expect.any(Number),
      petId,
      status: 'placed',
      placedAt: expect.stringMatching(/Z$/),
      updatedAt: order.placedAt,
      adopter: { ...ADOPTER, phone: '+44 20 7946 0958' },
      message: 'We have a garden.',
      history: [{ at: order.placedAt, to: 'placed', by: await startOf('partner') }],
    });
    expect(await petStatus(api, petId)).toBe('available');
    // The Location answers with the same order.
    const fetched = await api.fetch(response.headers.get('location') ?? '', { key: partner });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(order);
  });

  it('answers 409 pet_not_available for a pending or sold animal, 404 for an unknown one', async () => {
    const petId = await newPet();
    const held = await placedOrder(api, partner, petId);
    expect((await transition(api, staff, held.id, 'approve')).status).toBe(200);
    const again = await placeOrder(api, otherPartner, petId, {
      adopter: { name: 'Bo', email: 'bo@example.org' },
    });
    expect(again.status).toBe(409);
    expect(await errorBody(again)).toEqual({
      code: 'pet_not_available',
      status: 409,
      message: expect.stringMatching(/is pending, not available/),
    });
    const sold = (await (
      await api.fetch(
        '/v1/pets',
        json({ name: 'Gone', categoryId, status: 'sold' }, { key: staff }),
      )
    ).json()) as { id: number };
    const soldOrder = await placeOrder(api, partner, sold.id);
    expect(soldOrder.status).toBe(409);
    expect(await petStatus(api, sold.id)).toBe('sold');

    const unknown = await placeOrder(api, partner, 987_654);
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'not_found', status: 404 });
    expect(await api.prisma.order.count({ where: { petId: BigInt(sold.id) } })).toBe(0);
  });

  it('refuses a bad body with 400 and changes nothing', async () => {
    const petId = await newPet();
    for (const body of [
      { petId },
      { petId, adopter: { name: 'Ada' } },
      { petId, adopter: { ...ADOPTER, email: 'not an email' } },
      { petId, adopter: { ...ADOPTER, name: '   ' } },
      { petId, adopter: ADOPTER, message: 'x'.repeat(1001) },
      { petId: 'seven', adopter: ADOPTER },
      { petId, adopter: ADOPTER, status: 'approved' },
    ]) {
      const response = await api.fetch('/v1/store/orders', json(body, { key: partner }));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorBody(response)).code).toBe('invalid_request');
    }
    expect(await petStatus(api, petId)).toBe('available');
  });
});

describe('getOrder', () => {
  it("shows a partner its own order, a staff key every order, and hides another key's as 404", async () => {
    const order = await placedOrder(api, partner, await newPet());
    expect((await api.fetch(`/v1/store/orders/${order.id}`, { key: partner })).status).toBe(200);
    expect((await api.fetch(`/v1/store/orders/${order.id}`, { key: staff })).status).toBe(200);
    const hidden = await api.fetch(`/v1/store/orders/${order.id}`, { key: otherPartner });
    const missing = await api.fetch('/v1/store/orders/987654', { key: otherPartner });
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    // The same answer as for an order that does not exist, but for the id.
    expect((await errorBody(hidden)).message.replace(String(order.id), 'N')).toBe(
      (await errorBody(missing)).message.replace('987654', 'N'),
    );
    expect((await api.fetch('/v1/store/orders/x', { key: partner })).status).toBe(400);
  });
});

type TStep = {
  key: 'partner' | 'otherPartner' | 'staff';
  action: TOrderAction;
  status: number;
  code?: string;
  /** The order's and the animal's status after the step. */
  order: TOrder['status'];
  pet: 'available' | 'pending' | 'sold';
};

/**
 * Paths through the lifecycle. Every transition from every status, for both roles: the allowed
 * ones change the order and the animal; the others answer and change nothing.
 */
const PATHS: Record<string, TStep[]> = {
  'placed -> approved -> completed (staff), with every refusal on the way': [
    {
      key: 'partner',
      action: 'approve',
      status: 403,
      code: 'forbidden',
      order: 'placed',
      pet: 'available',
    },
    {
      key: 'partner',
      action: 'complete',
      status: 403,
      code: 'forbidden',
      order: 'placed',
      pet: 'available',
    },
    {
      key: 'staff',
      action: 'complete',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'placed',
      pet: 'available',
    },
    { key: 'staff', action: 'approve', status: 200, order: 'approved', pet: 'pending' },
    {
      key: 'staff',
      action: 'approve',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'approved',
      pet: 'pending',
    },
    {
      key: 'partner',
      action: 'complete',
      status: 403,
      code: 'forbidden',
      order: 'approved',
      pet: 'pending',
    },
    { key: 'staff', action: 'complete', status: 200, order: 'completed', pet: 'sold' },
    {
      key: 'staff',
      action: 'complete',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'completed',
      pet: 'sold',
    },
    {
      key: 'staff',
      action: 'approve',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'completed',
      pet: 'sold',
    },
    {
      key: 'staff',
      action: 'cancel',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'completed',
      pet: 'sold',
    },
    {
      key: 'partner',
      action: 'cancel',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'completed',
      pet: 'sold',
    },
  ],
  'placed -> cancelled by the partner that placed it': [
    {
      key: 'otherPartner',
      action: 'cancel',
      status: 404,
      code: 'not_found',
      order: 'placed',
      pet: 'available',
    },
    { key: 'partner', action: 'cancel', status: 200, order: 'cancelled', pet: 'available' },
    {
      key: 'partner',
      action: 'cancel',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'cancelled',
      pet: 'available',
    },
    {
      key: 'staff',
      action: 'approve',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'cancelled',
      pet: 'available',
    },
    {
      key: 'staff',
      action: 'complete',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'cancelled',
      pet: 'available',
    },
    {
      key: 'staff',
      action: 'cancel',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'cancelled',
      pet: 'available',
    },
  ],
  'placed -> cancelled by staff': [
    { key: 'staff', action: 'cancel', status: 200, order: 'cancelled', pet: 'available' },
  ],
  'approved -> cancelled by the partner': [
    { key: 'staff', action: 'approve', status: 200, order: 'approved', pet: 'pending' },
    {
      key: 'otherPartner',
      action: 'cancel',
      status: 404,
      code: 'not_found',
      order: 'approved',
      pet: 'pending',
    },
    { key: 'partner', action: 'cancel', status: 200, order: 'cancelled', pet: 'available' },
  ],
  'placed -> declined by staff, the animal untouched': [
    {
      key: 'partner',
      action: 'decline',
      status: 403,
      code: 'forbidden',
      order: 'placed',
      pet: 'available',
    },
    { key: 'staff', action: 'decline', status: 200, order: 'declined', pet: 'available' },
    {
      key: 'staff',
      action: 'approve',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'declined',
      pet: 'available',
    },
    {
      key: 'partner',
      action: 'cancel',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'declined',
      pet: 'available',
    },
  ],
  'approved -> declined by staff, the animal available again': [
    { key: 'staff', action: 'approve', status: 200, order: 'approved', pet: 'pending' },
    { key: 'staff', action: 'decline', status: 200, order: 'declined', pet: 'available' },
    {
      key: 'staff',
      action: 'decline',
      status: 409,
      code: 'order_transition_not_allowed',
      order: 'declined',
      pet: 'available',
    },
  ],
  'approved -> cancelled by staff': [
    { key: 'staff', action: 'approve', status: 200, order: 'approved', pet: 'pending' },
    { key: 'staff', action: 'cancel', status: 200, order: 'cancelled', pet: 'available' },
    {
      key: 'partner',
      action: 'approve',
      status: 403,
      code: 'forbidden',
      order: 'cancelled',
      pet: 'available',
    },
  ],
};

describe('transitions', () => {
  it.each(Object.entries(PATHS))('%s', async (_name, steps) => {
    const keys = { partner, otherPartner, staff };
    const petId = await newPet();
    const placed = await placedOrder(api, partner, petId);
    let history = placed.history;
    for (const step of steps) {
      const label = `${step.key} ${step.action} -> ${step.status}`;
      const before = await api.prisma.order.findUniqueOrThrow({ where: { id: BigInt(placed.id) } });
      const response = await transition(api, keys[step.key], placed.id, step.action);
      expect(response.status, label).toBe(step.status);
      const body = (await response.json()) as TOrder & { code?: string };
      if (step.status === 200) {
        expect(body.status, label).toBe(step.order);
        if (step.order === 'declined') {
          expect(body.declineReason, label).toBe(DECLINE.reason);
        } else {
          expect(body, label).not.toHaveProperty('declineReason');
        }
        expect(body.history, label).toEqual([
          ...history,
          {
            at: body.updatedAt,
            from: history.at(-1)?.to,
            to: step.order,
            by: await startOf(step.key === 'staff' ? 'store' : 'partner'),
          },
        ]);
        history = body.history;
      } else {
        expect(body.code, label).toBe(step.code);
        // Nothing changed: not the status, not the history, not the time.
        const after = await api.prisma.order.findUniqueOrThrow({
          where: { id: BigInt(placed.id) },
        });
        expect(after, label).toEqual(before);
      }
      const stored = await api.fetch(`/v1/store/orders/${placed.id}`, { key: staff });
      expect(((await stored.json()) as TOrder).status, label).toBe(step.order);
      expect(await petStatus(api, petId), label).toBe(step.pet);
    }
  });

  it('a cancelled animal can be ordered again, by anyone', async () => {
    const petId = await newPet();
    const first = await placedOrder(api, partner, petId);
    expect((await transition(api, partner, first.id, 'cancel')).status).toBe(200);
    const second = await placedOrder(api, otherPartner, petId);
    expect(second.status).toBe('placed');
    expect(await petStatus(api, petId)).toBe('available');
    expect((await transition(api, staff, second.id, 'approve')).status).toBe(200);
    expect((await transition(api, staff, second.id, 'complete')).status).toBe(200);
    expect(await petStatus(api, petId)).toBe('sold');
  });

  it('404 for an unknown order, for staff too; 400 for an id that is not one', async () => {
    for (const action of ['approve', 'decline', 'complete', 'cancel'] as const) {
      const response = await transition(api, staff, 987_654, action);
      expect(response.status).toBe(404);
      expect(await errorBody(response)).toMatchObject({ code: 'not_found', status: 404 });
    }
    expect((await transition(api, staff, 0, 'approve')).status).toBe(400);
  });

  it('takes no body: an empty JSON body or another media type is ignored, one over 16 KiB is 413', async () => {
    const order = await placedOrder(api, partner, await newPet());
    const approve = await api.fetch(`/v1/store/orders/${order.id}/approve`, {
      method: 'POST',
      key: staff,
      headers: { 'content-type': 'application/json' },
    });
    expect(approve.status).toBe(200);
    const tooLarge = await api.fetch(`/v1/store/orders/${order.id}/complete`, {
      method: 'POST',
      key: staff,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'x'.repeat(20_000) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(await petStatus(api, order.petId)).toBe('pending');
    const complete = await api.fetch(`/v1/store/orders/${order.id}/complete`, {
      method: 'POST',
      key: staff,
      headers: { 'content-type': 'text/plain' },
      body: 'done',
    });
    expect(complete.status).toBe(200);
    expect(await petStatus(api, order.petId)).toBe('sold');
  });

  it('a read-only key cannot cancel an order: 403', async () => {
    const kiosk = await api.createKey({ name: 'kiosk', readOnly: true });
    const order = await placedOrder(api, partner, await newPet());
    const response = await transition(api, kiosk, order.id, 'cancel');
    expect(response.status).toBe(403);
    expect((await errorBody(response)).code).toBe('forbidden');
    expect(await petStatus(api, order.petId)).toBe('available');
  });
});
