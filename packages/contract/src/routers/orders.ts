import { initContract } from '@ts-rest/core';
import { Header } from '../headers';
import { ZError } from '../schemas/error';
import { ZListOrdersQuery, ZOrders } from '../schemas/order';
import type { TRouteMetadata } from './metadata';

const c = initContract();

export const ordersRouter = c.router({
  listOrders: {
    method: 'GET',
    path: '/store/orders',
    summary: "List the caller's adoption orders",
    description:
      'Adoption orders placed with the calling API key, newest first, at most `limit` of them. ' +
      'Filter with `status`; further pages as for `GET /v1/pets`. A new key has none.',
    query: ZListOrdersQuery,
    responses: {
      200: ZOrders,
      400: ZError,
    },
    metadata: { responseHeaders: { 200: [Header.link] } } satisfies TRouteMetadata,
  },
});
