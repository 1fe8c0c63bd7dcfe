import { describe, expect, it } from 'vitest';
import {
  OPEN_ORDER_STATUSES,
  ORDER_DECLINE_NOTE_MAX_LENGTH,
  ORDER_HISTORY_MAX,
  ORDER_SIDE_EFFECTS,
  ORDER_TRANSITIONS,
  ORDERS_CURSOR,
  orderActionsFrom,
  ZDeclineOrder,
  ZListOrdersQuery,
  ZNewOrder,
  ZOrder,
  ZOrderStatus,
} from './order';

const order = {
  id: 1,
  petId: 2,
  status: 'placed',
  placedAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T10:15:00.000Z',
  adopter: { name: 'Ada', email: 'ada@example.org' },
  history: [{ at: '2026-11-23T10:15:00.000Z', to: 'placed', by: 'pets_live_abcd' }],
};

describe('orders', () => {
  it('shares the limit rules of the pets list', () => {
    expect(ZListOrdersQuery.parse({}).limit).toBe(20);
    expect(ZListOrdersQuery.safeParse({ limit: '101' }).success).toBe(false);
    expect(ZListOrdersQuery.safeParse({ limit: '0' }).success).toBe(false);
  });

  it('filters by the six order statuses and by a petId', () => {
    for (const status of ZOrderStatus.options) {
      expect(ZListOrdersQuery.safeParse({ status }).success).toBe(true);
    }
    expect(ZListOrdersQuery.safeParse({ status: 'sold' }).success).toBe(false);
    expect(ZListOrdersQuery.parse({ petId: '42' }).petId).toBe(42);
    expect(ZListOrdersQuery.safeParse({ petId: '0' }).success).toBe(false);
  });

  it('keeps both filters in the cursor', () => {
    const cursor = ORDERS_CURSOR.encode(9, { status: 'placed', petId: 42 });
    expect(ORDERS_CURSOR.read(cursor, {})).toEqual({
      before: 9n,
      filters: { status: 'placed', petId: 42 },
    });
    expect(ORDERS_CURSOR.read(cursor, { petId: 7 })).toEqual({ mismatch: 'petId', issued: '42' });
  });

  it('carries its times as RFC 3339 timestamps and its history', () => {
    expect(ZOrder.safeParse(order).success).toBe(true);
    expect(ZOrder.safeParse({ ...order, placedAt: 'yesterday' }).success).toBe(false);
    expect(ZOrder.safeParse({ ...order, history: [] }).success).toBe(false);
  });

  it('needs an adopter with a name and a valid email; phone and message are optional', () => {
    const adopter = { name: ' Ada ', email: 'ada@example.org' };
    expect(ZNewOrder.parse({ petId: 1, adopter })).toEqual({
      petId: 1,
      adopter: { name: 'Ada', email: 'ada@example.org' },
    });
    expect(ZNewOrder.safeParse({ petId: 1, adopter: { ...adopter, email: 'ada' } }).success).toBe(
      false,
    );
    expect(ZNewOrder.safeParse({ petId: 1, adopter: { email: 'a@b.org' } }).success).toBe(false);
    expect(
      ZNewOrder.safeParse({ petId: 1, adopter: { ...adopter, phone: '+1 (555) 010-999' } }).success,
    ).toBe(true);
    expect(
      ZNewOrder.safeParse({ petId: 1, adopter: { ...adopter, phone: 'call me' } }).success,
    ).toBe(false);
    expect(ZNewOrder.safeParse({ petId: 1, adopter, message: 'x'.repeat(1001) }).success).toBe(
      false,
    );
    expect(ZNewOrder.safeParse({ petId: 1, adopter, extra: true }).success).toBe(false);
  });
});

describe('the state machine', () => {
  it('opens with unconfirmed, placed, waitlisted and approved; every transition starts from open statuses only', () => {
    expect(OPEN_ORDER_STATUSES).toEqual(['unconfirmed', 'placed', 'waitlisted', 'approved']);
    for (const { from } of Object.values(ORDER_TRANSITIONS)) {
      expect(OPEN_ORDER_STATUSES).toEqual(expect.arrayContaining([...from]));
    }
  });

  it('allows each status its actions, and none from a closed one', () => {
    expect(orderActionsFrom('placed')).toEqual(['approve', 'decline', 'cancel']);
    expect(orderActionsFrom('waitlisted')).toEqual(['approve', 'decline', 'cancel']);
    expect(orderActionsFrom('approved')).toEqual(['decline', 'complete', 'cancel']);
    // The adopter confirms (confirmOrderByLink), not the store: staff may only cancel.
    expect(orderActionsFrom('unconfirmed')).toEqual(['cancel']);
    for (const status of ['declined', 'completed', 'cancelled'] as const) {
      expect(orderActionsFrom(status)).toEqual([]);
    }
  });

  it('bounds the history by the longest walk: unconfirmed, placed, waitlisted, approved, closed', () => {
    expect(ORDER_HISTORY_MAX).toBe(5);
  });

  it('closes the others of a completed adoption as adopted by another family', () => {
    expect(ORDER_SIDE_EFFECTS.complete.others).toEqual({
      from: ['unconfirmed', 'placed', 'waitlisted'],
      to: 'declined',
      reason: 'adopted_by_another_family',
    });
  });
});

describe('declining', () => {
  it('takes a reason from the list and an optional note, trimmed, at most 1000 characters', () => {
    expect(ZDeclineOrder.parse({ reason: 'not_a_match', note: ' Sorry. ' })).toEqual({
      reason: 'not_a_match',
      note: 'Sorry.',
    });
    expect(ZDeclineOrder.safeParse({ reason: 'other' }).success).toBe(true);
    expect(ZDeclineOrder.safeParse({ reason: 'because' }).success).toBe(false);
    expect(ZDeclineOrder.safeParse({ note: 'no reason' }).success).toBe(false);
    expect(
      ZDeclineOrder.safeParse({
        reason: 'other',
        note: 'x'.repeat(ORDER_DECLINE_NOTE_MAX_LENGTH + 1),
      }).success,
    ).toBe(false);
    expect(ZDeclineOrder.safeParse({ reason: 'other', extra: 1 }).success).toBe(false);
  });

  it('shows the reason and the note on a declined order', () => {
    const declined = {
      ...order,
      status: 'declined',
      declineReason: 'no_response',
      declineNote: 'We tried to call twice.',
    };
    expect(ZOrder.safeParse(declined).success).toBe(true);
    expect(ZOrder.safeParse({ ...declined, declineReason: 'nope' }).success).toBe(false);
  });
});
