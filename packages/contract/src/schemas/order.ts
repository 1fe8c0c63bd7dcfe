import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { listCursor } from '../rules/cursor';
import { idField, PAGE_SIZE, ZCursorQuery, ZLimitQuery } from './common';

export const ZOrderStatus = extendApi(z.enum(['placed', 'approved', 'completed', 'cancelled']), {
  description:
    'Progress of an adoption order: `placed` by the caller, `approved` by the store, `completed` ' +
    'when the animal has gone home, or `cancelled`.',
});
export type TOrderStatus = z.infer<typeof ZOrderStatus>;
export const OrderStatus = ZOrderStatus.enum;

export const ZOrder = extendApi(
  z.object({
    id: idField('Unique identifier of the order.'),
    petId: idField('The animal this adoption order is for.'),
    status: ZOrderStatus,
    // An RFC 3339 instant in UTC with milliseconds is 24 characters.
    placedAt: z.string().datetime().max(24).describe('When the order was placed (RFC 3339, UTC).'),
  }),
  {
    title: 'Order',
    example: { id: 7, petId: 42, status: 'placed', placedAt: '2026-11-23T10:15:00.000Z' },
  },
);
export type TOrder = z.infer<typeof ZOrder>;

export const ZOrders = extendApi(z.array(ZOrder).max(PAGE_SIZE.max), { title: 'Orders' });
export type TOrders = z.infer<typeof ZOrders>;

/** The filters of listOrders as its cursor carries them. */
export type TOrdersListFilters = { status?: TOrderStatus | undefined };

/** The cursor of listOrders: where the next page starts, and the list's status filter. */
export const ORDERS_CURSOR = listCursor<TOrdersListFilters>({
  status: { write: (status) => status, read: (text) => ZOrderStatus.safeParse(text).data },
});

export const ZListOrdersQuery = z.object({
  limit: ZLimitQuery,
  status: extendApi(ZOrderStatus.optional(), {
    description: 'Only orders whose status equals this value. Omit for all orders.',
  }),
  cursor: ZCursorQuery,
});
export type TListOrdersQuery = z.infer<typeof ZListOrdersQuery>;
