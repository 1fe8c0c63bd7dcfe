import { describe, expect, it } from 'vitest';
import { ORDERS_CURSOR, ZListOrdersQuery, ZNewOrder, ZOrder } from './order';

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

  it('filters by the four order statuses and by a petId', () => {
    for (const status of ['placed', 'approved', 'completed', 'cancelled']) {
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
