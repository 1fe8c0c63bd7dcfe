import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { idField, ZCursorQuery, ZLimitQuery } from './common';

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
    petId: extendApi(z.number().int(), {
      format: 'int64',
      description: 'The animal this adoption order is for.',
    }),
    status: ZOrderStatus,
    placedAt: z.string().datetime().describe('When the order was placed (RFC 3339, UTC).'),
  }),
  {
    title: 'Order',
    example: { id: 7, petId: 42, status: 'placed', placedAt: '2026-11-23T10:15:00.000Z' },
  },
);
export type TOrder = z.infer<typeof ZOrder>;

export const ZOrders = extendApi(z.array(ZOrder), { title: 'Orders' });
export type TOrders = z.infer<typeof ZOrders>;

export const ZListOrdersQuery = z.object({
  limit: ZLimitQuery,
  status: extendApi(ZOrderStatus.optional(), {
    description: 'Only orders whose status equals this value. Omit for all orders.',
  }),
  cursor: ZCursorQuery,
});
export type TListOrdersQuery = z.infer<typeof ZListOrdersQuery>;
