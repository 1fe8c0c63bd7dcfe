import { ORDERS_CURSOR, type TOrder, type TOrderStatus, type TPage, toPage } from '@pets/contract';
import { prepareShapes, type TQueryable } from '@pets/db';

/**
 * The orders table and its one row -> `TOrder` mapping. Each statement is compiled once, when this
 * module loads; `int8` columns arrive as strings, `timestamptz` as a Date.
 */

const ORDER_COLUMNS = ['id', 'pet_id as petId', 'status', 'placed_at as placedAt'] as const;

type TOrderRow = { id: string; petId: string; status: TOrderStatus; placedAt: Date };

const toOrder = (row: TOrderRow): TOrder => ({
  id: Number(row.id),
  petId: Number(row.petId),
  status: row.status,
  placedAt: row.placedAt.toISOString(),
});

/** A page request of one key's orders, the cursor already read (`before`: ids below it). */
export type TOrderFilter = {
  limit: number;
  status?: TOrderStatus | undefined;
  before?: bigint | undefined;
};

type TListParams = { apiKeyId: string; limit: number; status: TOrderStatus; before: string };

/** The list statements, one per filter shape; (api_key_id[, status], id) indexes serve each. */
const LIST_STATEMENTS = prepareShapes(['status', 'before'], (db, p: TListParams, has) => {
  let query = db.selectFrom('orders').select(ORDER_COLUMNS).where('api_key_id', '=', p.apiKeyId);
  if (has('status')) {
    query = query.where('status', '=', p.status);
  }
  if (has('before')) {
    query = query.where('id', '<', p.before);
  }
  return query.orderBy('id', 'desc').limit(p.limit);
});

export class OrdersRepository {
  constructor(private readonly db: TQueryable) {}

  /** The orders of one API key, newest first, as a keyset page whose cursor keeps the filter. */
  async listForKey(apiKeyId: bigint, filter: TOrderFilter): Promise<TPage<TOrder>> {
    const { limit, status, before } = filter;
    // An absent filter's value is empty: it picks the shape without that filter.
    const { rows } = await LIST_STATEMENTS.execute(this.db, {
      apiKeyId: String(apiKeyId),
      limit: limit + 1,
      status: status as TOrderStatus,
      before: before ? String(before) : '',
    });
    const page = toPage(rows, limit, ORDERS_CURSOR, filter);
    return { items: page.items.map(toOrder), nextCursor: page.nextCursor };
  }
}
