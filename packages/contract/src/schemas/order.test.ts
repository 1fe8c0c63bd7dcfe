import { describe, expect, it } from 'vitest';
import { ZListOrdersQuery, ZOrder } from './order';

describe('orders', () => {
  it('shares the limit rules of the pets list', () => {
    expect(ZListOrdersQuery.parse({}).limit).toBe(20);
    expect(ZListOrdersQuery.safeParse({ limit: '101' }).success).toBe(false);
    expect(ZListOrdersQuery.safeParse({ limit: '0' }).success).toBe(false);
  });

  it('filters by the four order statuses', () => {
    for (const status of ['placed', 'approved', 'completed', 'cancelled']) {
      expect(ZListOrdersQuery.safeParse({ status }).success).toBe(true);
    }
    expect(ZListOrdersQuery.safeParse({ status: 'sold' }).success).toBe(false);
  });

  it('carries placedAt as an RFC 3339 timestamp', () => {
    const order = { id: 1, petId: 2, status: 'placed', placedAt: '2026-11-23T10:15:00.000Z' };
    expect(ZOrder.safeParse(order).success).toBe(true);
    expect(ZOrder.safeParse({ ...order, placedAt: 'yesterday' }).success).toBe(false);
  });
});
