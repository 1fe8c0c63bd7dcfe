import {
  ORDERS_CURSOR,
  type TAdopter,
  type TOrder,
  type TOrderHistoryEntry,
  type TOrderStatus,
  type TPage,
  type TPetStatus,
  toPage,
} from '@pets/contract';
import { prepare, prepareShapes, sql, type TQueryable } from '@pets/db';
import type { Pool } from 'pg';
import { petsInOrders } from './pets.repository';
import { isUniqueViolation, withTransaction } from './transaction';

/**
 * The orders table and its one row -> `TOrder` mapping. Each statement is compiled once, when this
 * module loads; `int8` columns arrive as strings, `timestamptz` as a Date, `jsonb` parsed.
 *
 * The invariants live in the database as much as in this code: at most one open (placed or
 * approved) order per animal is the partial unique index `orders_one_open_per_pet_key`; placing
 * an order takes the animal from `available` to `pending` with one conditional UPDATE in the same
 * transaction as the INSERT (the row lock orders concurrent attempts: the first wins, the others
 * find the animal `pending`); a transition is one conditional UPDATE of the order (`WHERE status
 * = ANY(from)`), so two concurrent transitions cannot both succeed.
 */

const ORDER_COLUMNS = [
  'id',
  'pet_id as petId',
  'status',
  'placed_at as placedAt',
  'updated_at as updatedAt',
  'adopter_name as adopterName',
  'adopter_email as adopterEmail',
  'adopter_phone as adopterPhone',
  'message',
  'history',
] as const;

type TOrderRow = {
  id: string;
  petId: string;
  status: TOrderStatus;
  placedAt: Date;
  updatedAt: Date;
  adopterName: string;
  adopterEmail: string;
  adopterPhone: string | null;
  message: string | null;
  history: unknown;
};

const toOrder = (row: TOrderRow): TOrder => ({
  id: Number(row.id),
  petId: Number(row.petId),
  status: row.status,
  placedAt: row.placedAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  adopter: {
    name: row.adopterName,
    email: row.adopterEmail,
    ...(row.adopterPhone === null ? {} : { phone: row.adopterPhone }),
  },
  ...(row.message === null ? {} : { message: row.message }),
  history: row.history as TOrderHistoryEntry[],
});

/**
 * The moment of a change, to the millisecond (the columns' precision), and the same moment as the
 * contract's RFC 3339 text for the history. `now()` is the transaction's start: one value per
 * transaction, so the column and the history entry agree.
 */
const NOW = sql<Date>`date_trunc('milliseconds', now())`;
const NOW_TEXT = sql<string>`to_char(date_trunc('milliseconds', now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const INSERT_STATEMENT = prepare(
  (
    db,
    p: {
      petId: string;
      apiKeyId: string;
      by: string;
      adopterName: string;
      adopterEmail: string;
      adopterPhone: string | null;
      message: string | null;
    },
  ) =>
    db
      .insertInto('orders')
      .values({
        pet_id: p.petId,
        api_key_id: p.apiKeyId,
        status: 'placed',
        placed_at: NOW,
        updated_at: NOW,
        adopter_name: p.adopterName,
        adopter_email: p.adopterEmail,
        adopter_phone: p.adopterPhone,
        message: p.message,
        history: sql`jsonb_build_array(jsonb_build_object('at', ${NOW_TEXT}, 'to', 'placed', 'by', ${p.by}::text))`,
      })
      .returning(ORDER_COLUMNS),
);

type TTransitionParams = {
  id: string;
  from: readonly TOrderStatus[];
  to: TOrderStatus;
  by: string;
  apiKeyId: string;
};

/**
 * One transition: the order changes only if it is in a `from` status (and, for a partner, is its
 * own); its history gains the entry in the same statement. In SET, `status` is the old value.
 */
const TRANSITION_STATEMENTS = prepareShapes(['apiKeyId'], (db, p: TTransitionParams, has) => {
  let query = db
    .updateTable('orders')
    .set({
      status: sql`${p.to}::order_status`,
      updated_at: NOW,
      history: sql`history || jsonb_build_array(jsonb_build_object('at', ${NOW_TEXT}, 'from', status, 'to', ${p.to}::text, 'by', ${p.by}::text))`,
    })
    .where('id', '=', p.id)
    .where('status', '=', (eb) => eb.fn<TOrderStatus>('any', [sql`${p.from}::order_status[]`]));
  if (has('apiKeyId')) {
    query = query.where('api_key_id', '=', p.apiKeyId);
  }
  return query.returning(ORDER_COLUMNS);
});

const GET_STATEMENTS = prepareShapes(
  ['apiKeyId'],
  (db, p: { id: string; apiKeyId: string }, has) => {
    let query = db.selectFrom('orders').select(ORDER_COLUMNS).where('id', '=', p.id);
    if (has('apiKeyId')) {
      query = query.where('api_key_id', '=', p.apiKeyId);
    }
    return query;
  },
);

/** A page request of orders, the cursor already read (`before`: ids below it). */
export type TOrderFilter = {
  limit: number;
  status?: TOrderStatus | undefined;
  petId?: number | undefined;
  before?: bigint | undefined;
};

type TListParams = {
  apiKeyId: string;
  limit: number;
  status: TOrderStatus;
  petId: string;
  before: string;
};

/**
 * The list statements, one per filter shape. A partner's list is served by the (api_key_id[,
 * status], id) indexes; a staff key's (no api_key_id) by the primary key, (status, id) or (pet_id,
 * id).
 */
const LIST_STATEMENTS = prepareShapes(
  ['apiKeyId', 'status', 'petId', 'before'],
  (db, p: TListParams, has) => {
    let query = db.selectFrom('orders').select(ORDER_COLUMNS);
    if (has('apiKeyId')) {
      query = query.where('api_key_id', '=', p.apiKeyId);
    }
    if (has('status')) {
      query = query.where('status', '=', p.status);
    }
    if (has('petId')) {
      query = query.where('pet_id', '=', p.petId);
    }
    if (has('before')) {
      query = query.where('id', '<', p.before);
    }
    return query.orderBy('id', 'desc').limit(p.limit);
  },
);

/** Whose orders a caller sees: its own (`apiKeyId`), or every order (staff, `null`). */
export type TOrderScope = { apiKeyId: bigint | null };

export type TNewOrderRecord = {
  petId: number;
  adopter: TAdopter;
  message?: string | undefined;
  apiKeyId: bigint;
  /** Display start of the key, for the history. */
  by: string;
};

/** An order named an animal that does not exist: nothing was written. */
export class UnknownPetError extends Error {
  constructor(readonly petId: number) {
    super(`no animal has id ${petId}`);
  }
}

/** An order named an animal that is not available (its status says why): nothing was written. */
export class PetNotAvailableError extends Error {
  constructor(
    readonly petId: number,
    readonly status: TPetStatus,
  ) {
    super(`animal ${petId} is ${status}`);
  }
}

/** A transition named an order this caller does not see (or none): nothing changed. */
export class OrderNotFoundError extends Error {
  constructor(readonly orderId: number) {
    super(`no order ${orderId} for this caller`);
  }
}

/** A transition from a status it does not start from (`status`, the order's): nothing changed. */
export class OrderStatusError extends Error {
  constructor(
    readonly orderId: number,
    readonly status: TOrderStatus,
  ) {
    super(`order ${orderId} is ${status}`);
  }
}

/** What a transition does to the animal, if anything. */
const PET_STATUS_AFTER: Partial<Record<TOrderStatus, TPetStatus>> = {
  completed: 'sold',
  cancelled: 'available',
};

const scopeParam = (scope: TOrderScope): string =>
  scope.apiKeyId === null ? '' : String(scope.apiKeyId);

export class OrdersRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Places an order for an available animal: in one transaction the animal becomes `pending` and
   * the order is created. Refused (nothing written) when the animal does not exist
   * (UnknownPetError) or is not available (PetNotAvailableError), including when the
   * one-open-order index refuses the row.
   */
  place(order: TNewOrderRecord): Promise<TOrder> {
    const petId = String(order.petId);
    return withTransaction(this.pool, async (client) => {
      if (!(await petsInOrders.reserve(client, petId))) {
        throw await this.refusalFor(client, order.petId);
      }
      const { rows } = await INSERT_STATEMENT.execute(client, {
        petId,
        apiKeyId: String(order.apiKeyId),
        by: order.by,
        adopterName: order.adopter.name,
        adopterEmail: order.adopter.email,
        adopterPhone: order.adopter.phone ?? null,
        message: order.message ?? null,
      });
      return toOrder(rows[0] as TOrderRow);
    }).catch((error: unknown) => {
      // The database's own guard: an open order exists although the animal was available.
      throw isUniqueViolation(error) ? new PetNotAvailableError(order.petId, 'pending') : error;
    });
  }

  private async refusalFor(db: TQueryable, petId: number): Promise<Error> {
    const status = await petsInOrders.statusOf(db, String(petId));
    return status ? new PetNotAvailableError(petId, status) : new UnknownPetError(petId);
  }

  /**
   * Moves an order from one of `from` to `to`, and the animal with it (completed: sold,
   * cancelled: available), in one transaction. Refused, with nothing changed, when the order is
   * not visible in `scope` (OrderNotFoundError) or not in a `from` status (OrderStatusError).
   */
  transition(
    id: number,
    scope: TOrderScope,
    change: { from: readonly TOrderStatus[]; to: TOrderStatus; by: string },
  ): Promise<TOrder> {
    const params = {
      id: String(id),
      apiKeyId: scopeParam(scope),
      from: change.from,
      to: change.to,
      by: change.by,
    };
    return withTransaction(this.pool, async (client) => {
      const { rows } = await TRANSITION_STATEMENTS.execute(client, params);
      const row = rows[0];
      if (!row) {
        const current = await this.get(id, scope, client);
        throw current ? new OrderStatusError(id, current.status) : new OrderNotFoundError(id);
      }
      const petStatus = PET_STATUS_AFTER[change.to];
      if (petStatus) {
        await petsInOrders.setStatus(client, row.petId, petStatus);
      }
      return toOrder(row);
    });
  }

  /** One order, if it exists and is visible in `scope`. */
  async get(id: number, scope: TOrderScope, db: TQueryable = this.pool): Promise<TOrder | null> {
    const { rows } = await GET_STATEMENTS.execute(db, {
      id: String(id),
      apiKeyId: scopeParam(scope),
    });
    const row = rows[0];
    return row ? toOrder(row) : null;
  }

  /** The orders visible in `scope`, newest first, as a keyset page whose cursor keeps the filters. */
  async list(scope: TOrderScope, filter: TOrderFilter): Promise<TPage<TOrder>> {
    const { limit, status, petId, before } = filter;
    // An absent filter's value is empty: it picks the shape without that filter.
    const { rows } = await LIST_STATEMENTS.execute(this.pool, {
      apiKeyId: scopeParam(scope),
      limit: limit + 1,
      status: status as TOrderStatus,
      petId: petId ? String(petId) : '',
      before: before ? String(before) : '',
    });
    const page = toPage(rows, limit, ORDERS_CURSOR, { status, petId });
    return { items: page.items.map(toOrder), nextCursor: page.nextCursor };
  }
}
