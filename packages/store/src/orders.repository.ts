import {
  IN_REVIEW_ORDER_STATUSES,
  ORDER_CONFIRMATION,
  ORDER_HISTORY_BY_SCHEDULE,
  ORDER_NOTES_MAX,
  ORDER_SIDE_EFFECTS,
  ORDER_TRANSITIONS,
  ORDERS_CURSOR,
  orderEventType,
  orderSearchOf,
  type TAdopter,
  type TDeclineReason,
  type TOrder,
  type TOrderAction,
  type TOrderHistoryEntry,
  type TOrderNote,
  type TOrderNoteKind,
  type TOrderSideEffects,
  type TOrderStatus,
  type TOrdersListFilters,
  type TPage,
  type TPetStatus,
  toPage,
} from '@pets/contract';
import {
  type DB,
  prepare,
  prepareShapes,
  type SelectQueryBuilder,
  sql,
  type TQueryable,
} from '@pets/db';
import type { Pool, PoolClient } from 'pg';
import { recordAudit, type TAuditActor } from './audit.repository';
import { UnknownPetError } from './errors';
import { recordEvents, type TNewEvent } from './events.repository';
import { petsInOrders, recordPetEvents } from './pets.repository';
import { rfc3339 } from './sql-time';
import { isUniqueViolation, withTransaction } from './transaction';

/**
 * The orders table and its one row -> `TOrder` mapping. Each statement is compiled once, when this
 * module loads; `int8` columns arrive as strings, `timestamptz` as a Date, `jsonb` parsed.
 *
 * An animal takes any number of applications; the invariants live in the database as much as in
 * this code. One open order per animal and adopter email is the partial unique index
 * `orders_one_open_per_pet_adopter_key`, one approved-or-completed order per animal
 * `orders_one_approved_per_pet_key`. Placing an order counts it on the animal with one
 * conditional UPDATE of the animal (only while `available`), which locks the animal's row; every
 * transition locks that row first too, so whatever happens to one animal's orders queues there
 * (an approval and a placement, two approvals), while other animals' orders go on in parallel. A
 * transition is then one conditional UPDATE of the order (`WHERE status = ANY(from)`), its side
 * effects (ORDER_SIDE_EFFECTS of the contract) one UPDATE of the other orders and one of the
 * animal, and every change reaches the repository's `onChanges` in the same transaction.
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
  'household',
  'other_animals as otherAnimals',
  'history',
  'decline_reason as declineReason',
  'decline_note as declineNote',
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
  household: string | null;
  otherAnimals: string | null;
  history: unknown;
  declineReason: TDeclineReason | null;
  declineNote: string | null;
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
  ...(row.household === null ? {} : { household: row.household }),
  ...(row.otherAnimals === null ? {} : { otherAnimals: row.otherAnimals }),
  ...(row.declineReason === null ? {} : { declineReason: row.declineReason }),
  ...(row.declineNote === null ? {} : { declineNote: row.declineNote }),
  history: row.history as TOrderHistoryEntry[],
});

/** The status an UPDATE's order left: the `from` of the history entry it just appended. */
const PREVIOUS_STATUS = sql<TOrderStatus>`history -> -1 ->> 'from'`.as('previous');

/**
 * The moment of a change, to the millisecond (the columns' precision), and the same moment as the
 * contract's RFC 3339 text for the history: one value per statement, so the columns and the
 * history entry agree. The statement's start, not the transaction's (`now()`): a change that
 * waited for the animal's row lock (taken by an earlier statement of its transaction) is stamped
 * after the change it waited for, so listOrders' updatedAt walk meets changes in their order.
 */
const NOW = sql<Date>`date_trunc('milliseconds', statement_timestamp())`;
const NOW_TEXT = rfc3339("date_trunc('milliseconds', statement_timestamp())");

const INSERT_STATEMENT = prepare(
  (
    db,
    p: {
      petId: string;
      apiKeyId: string;
      status: TNewOrderStatus;
      by: string;
      adopterName: string;
      adopterEmail: string;
      adopterPhone: string | null;
      message: string | null;
      household: string | null;
      otherAnimals: string | null;
    },
  ) =>
    db
      .insertInto('orders')
      .values({
        pet_id: p.petId,
        api_key_id: p.apiKeyId,
        status: sql<TOrderStatus>`${p.status}::order_status`,
        placed_at: NOW,
        updated_at: NOW,
        adopter_name: p.adopterName,
        adopter_email: p.adopterEmail,
        adopter_phone: p.adopterPhone,
        message: p.message,
        household: p.household,
        other_animals: p.otherAnimals,
        history: sql`jsonb_build_array(jsonb_build_object('at', ${NOW_TEXT}, 'to', ${p.status}::text, 'by', ${p.by}::text))`,
      })
      .returning(ORDER_COLUMNS),
);

type TTransitionParams = {
  id: string;
  from: readonly TOrderStatus[];
  to: TOrderStatus;
  by: string;
  byName: string | null;
  apiKeyId: string;
  declineReason: TDeclineReason | null;
  declineNote: string | null;
};

/**
 * The history entry of a change to `to` by `by` (and, for a person, `byName`: absent otherwise); in
 * SET, `status` is still the old value.
 */
const historyWith = (to: TOrderStatus, by: string, byName: string | null) =>
  sql`history || jsonb_build_array(jsonb_build_object('at', ${NOW_TEXT}, 'from', status, 'to', ${to}::text, 'by', ${by}::text) || jsonb_strip_nulls(jsonb_build_object('byName', ${byName}::text)))`;

/** The columns every change of status sets: the status, when, its history entry and the reason. */
const changeTo = (
  to: TOrderStatus,
  by: string,
  declineReason: TDeclineReason | null,
  byName: string | null = null,
) => ({
  status: sql<TOrderStatus>`${to}::order_status`,
  updated_at: NOW,
  history: historyWith(to, by, byName),
  decline_reason: sql<TDeclineReason | null>`${declineReason}::decline_reason`,
});

/**
 * One transition: the order changes only if it is in a `from` status (and, for a partner, is its
 * own); its history gains the entry in the same statement. The decline's reason and note are null
 * for any other change.
 */
const TRANSITION_STATEMENTS = prepareShapes(['apiKeyId'], (db, p: TTransitionParams, has) => {
  let query = db
    .updateTable('orders')
    .set({
      ...changeTo(p.to, p.by, p.declineReason, p.byName),
      decline_note: sql`${p.declineNote}::varchar`,
    })
    .where('id', '=', p.id)
    .where('status', '=', (eb) => eb.fn<TOrderStatus>('any', [sql`${p.from}::order_status[]`]));
  if (has('apiKeyId')) {
    query = query.where('api_key_id', '=', p.apiKeyId);
  }
  return query.returning([...ORDER_COLUMNS, PREVIOUS_STATUS]);
});

/**
 * A transition's side effect on the animal's other orders: those in a `from` status move to `to`
 * (the reason set when they are declined), each with its history entry by the key that made the
 * transition.
 */
const OTHERS_STATEMENT = prepare(
  (
    db,
    p: {
      petId: string;
      exceptId: string;
      from: readonly TOrderStatus[];
      to: TOrderStatus;
      by: string;
      byName: string | null;
      declineReason: TDeclineReason | null;
    },
  ) =>
    db
      .updateTable('orders')
      .set(changeTo(p.to, p.by, p.declineReason, p.byName))
      .where('pet_id', '=', p.petId)
      .where('id', '<>', p.exceptId)
      .where('status', '=', (eb) => eb.fn<TOrderStatus>('any', [sql`${p.from}::order_status[]`]))
      .returning(['id', PREVIOUS_STATUS]),
);

/**
 * An unconfirmed order confirmed: `placed` (or `waitlisted`), and placed now, when it starts to
 * count: the staff's digest and the arrival the adopter is told of are the confirmation's.
 */
const CONFIRM_STATEMENT = prepare((db, p: { id: string; to: TOrderStatus; by: string }) =>
  db
    .updateTable('orders')
    .set({ ...changeTo(p.to, p.by, null), placed_at: NOW })
    .where('id', '=', p.id)
    .where('status', '=', ORDER_CONFIRMATION.from)
    .returning([...ORDER_COLUMNS, PREVIOUS_STATUS]),
);

/**
 * The orders left unconfirmed since before `before`, cancelled by the schedule, at most `limit`
 * at a time; one another transaction holds (being confirmed) is skipped, and its update re-reads
 * the status, so a confirmation and an expiry never both happen.
 */
const EXPIRE_STATEMENT = prepare((db, p: { before: Date; limit: number }) =>
  db
    .updateTable('orders')
    .set(changeTo(ORDER_CONFIRMATION.expiresTo, ORDER_HISTORY_BY_SCHEDULE, null))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('orders')
        .select('id')
        .where('status', '=', ORDER_CONFIRMATION.from)
        .where('placed_at', '<', p.before)
        .orderBy('placed_at')
        .limit(p.limit)
        .forUpdate()
        .skipLocked(),
    )
    .where('status', '=', ORDER_CONFIRMATION.from)
    .returning(['id', 'pet_id as petId']),
);

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

const NOTE_COLUMNS = [
  'id',
  'kind',
  'author',
  'text',
  rfc3339('created_at').as('createdAt'),
] as const;

const NOTES_STATEMENT = prepare((db, p: { orderId: string; limit: number }) =>
  db
    .selectFrom('order_notes')
    .select(NOTE_COLUMNS)
    .where('order_id', '=', p.orderId)
    .orderBy('id', 'asc')
    .limit(p.limit),
);

const INSERT_NOTE_STATEMENT = prepare(
  (
    db,
    p: { orderId: string; apiKeyId: string; author: string; kind: TOrderNoteKind; text: string },
  ) =>
    db
      .insertInto('order_notes')
      .values({
        order_id: p.orderId,
        api_key_id: p.apiKeyId,
        author: p.author,
        kind: p.kind,
        text: p.text,
      })
      .returning(NOTE_COLUMNS),
);

const NOTE_COUNT_STATEMENT = prepare((db, p: { orderId: string }) =>
  db
    .selectFrom('order_notes')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('order_id', '=', p.orderId),
);

/** The order's row, locked: two notes at once cannot both be the last one allowed. */
const ORDER_LOCK_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('orders').select('id').where('id', '=', p.id).forUpdate(),
);

/** A note refused because the application has ORDER_NOTES_MAX already: nothing written. */
export class OrderNotesFullError extends Error {
  constructor(readonly orderId: number) {
    super(`order ${orderId} has ${ORDER_NOTES_MAX} notes`);
  }
}

const toNote = (row: {
  id: string;
  kind: string;
  author: string;
  text: string;
  createdAt: string;
}): TOrderNote => ({
  id: Number(row.id),
  // The column's CHECK allows only the contract's kinds.
  kind: row.kind as TOrderNoteKind,
  author: row.author,
  text: row.text,
  createdAt: row.createdAt,
});

/** A page request of orders, the cursor already read (`before`: ids below it). */
export type TOrderFilter = TOrdersListFilters & {
  limit: number;
  before?: bigint | undefined;
};

type TListParams = {
  apiKeyId: string;
  limit: number;
  status: TOrderStatus;
  petId: string;
  /** updatedSince, as an ISO instant. */
  updatedSince: string;
  before: string;
  /** sort=updatedAt's cursor (with `before`, its id): the page starts after (after, before). */
  after: string;
  /** `q`, one of the three: a reference's order id, an address (lower-case), a name tsquery. */
  orderId: string;
  email: string;
  name: string;
};

const LIST_FILTERS = [
  'apiKeyId',
  'status',
  'petId',
  'updatedSince',
  'orderId',
  'email',
  'name',
] as const;

/**
 * The adopter name's words, as orders_adopter_name_search_idx has them (migration
 * 20261204101000_orders_search): the same expression, or the index is not used.
 */
const ADOPTER_NAME_DOCUMENT = sql`to_tsvector('simple'::regconfig, orders.adopter_name)`;

/** The WHERE of a list: one condition per filter given. */
const filteredOrders = <Q extends SelectQueryBuilder<DB, 'orders', object>>(
  query: Q,
  p: TListParams,
  has: (name: (typeof LIST_FILTERS)[number]) => boolean,
): Q => {
  let where = query;
  if (has('apiKeyId')) {
    where = where.where('api_key_id', '=', p.apiKeyId) as Q;
  }
  if (has('status')) {
    where = where.where('status', '=', p.status) as Q;
  }
  if (has('petId')) {
    where = where.where('pet_id', '=', p.petId) as Q;
  }
  if (has('updatedSince')) {
    where = where.where('updated_at', '>=', sql<Date>`${p.updatedSince}::timestamptz`) as Q;
  }
  if (has('orderId')) {
    where = where.where('id', '=', p.orderId) as Q;
  }
  if (has('email')) {
    // orders_adopter_email_id_idx's expression.
    where = where.where(sql<boolean>`lower(orders.adopter_email) = ${p.email}`) as Q;
  }
  if (has('name')) {
    where = where.where(
      sql<boolean>`${ADOPTER_NAME_DOCUMENT} @@ to_tsquery('simple'::regconfig, ${p.name})`,
    ) as Q;
  }
  return where;
};

/** `q` as the list's parameters: one of them set, the others empty (absent from the shape). */
const searchParams = (q: string | undefined): Pick<TListParams, 'orderId' | 'email' | 'name'> => {
  const search = q === undefined ? undefined : orderSearchOf(q);
  return {
    orderId: search?.by === 'reference' ? String(search.orderId) : '',
    email: search?.by === 'email' ? search.email : '',
    // Every word as the start of a word of the name; the words are letters and digits only.
    name: search?.by === 'name' ? search.words.map((word) => `'${word}':*`).join(' & ') : '',
  };
};

/**
 * The list statements, one per filter shape. A partner's list is served by the (api_key_id[,
 * status], id) indexes; a staff key's (no api_key_id) by the primary key, (status, id) or (pet_id,
 * id). A search by address reads (lower(adopter_email), id), one by name the GIN index of the
 * name's words, then sorts what they find: an adopter has a few applications, a name a few dozen.
 */
const LIST_STATEMENTS = prepareShapes([...LIST_FILTERS, 'before'], (db, p: TListParams, has) => {
  let query = filteredOrders(db.selectFrom('orders').select(ORDER_COLUMNS), p, has);
  if (has('before')) {
    query = query.where('id', '<', p.before);
  }
  return query.orderBy('id', 'desc').limit(p.limit);
});

/**
 * sort=updatedAt: the order changed longest ago first, ties by id, walked from the cursor's
 * (updatedAt, id) on orders_updated_at_id_idx (a partner's on orders_api_key_id_updated_at_id_idx).
 * A row changed after the walk passed it gets a later updated_at (the trigger's stamp only grows)
 * and is read again at the end.
 */
const LIST_BY_UPDATED_AT_STATEMENTS = prepareShapes(
  [...LIST_FILTERS, 'after'],
  (db, p: TListParams, has) => {
    let query = filteredOrders(db.selectFrom('orders').select(ORDER_COLUMNS), p, has);
    if (has('after')) {
      query = query.where(
        sql<boolean>`(orders.updated_at, orders.id) > (${p.after}::timestamptz, ${p.before}::bigint)`,
      );
    }
    return query.orderBy('updated_at', 'asc').orderBy('id', 'asc').limit(p.limit);
  },
);

/** Whose orders a caller sees: its own (`apiKeyId`), or every order (staff, `null`). */
export type TOrderScope = { apiKeyId: bigint | null };

/** How an order starts: `placed`, or `unconfirmed` where adopters confirm by email. */
export type TNewOrderStatus = typeof ORDER_CONFIRMATION.to | typeof ORDER_CONFIRMATION.from;

export type TNewOrderRecord = {
  petId: number;
  /** `placed` when absent. */
  status?: TNewOrderStatus | undefined;
  adopter: TAdopter;
  message?: string | undefined;
  household?: string | undefined;
  otherAnimals?: string | undefined;
  apiKeyId: bigint;
  /** Display start of the key, for the history. */
  by: string;
};

/** An order named an animal that is not available (its status says why): nothing was written. */
export class PetNotAvailableError extends Error {
  constructor(
    readonly petId: number,
    readonly status: TPetStatus,
  ) {
    super(`animal ${petId} is ${status}`);
  }
}

/** This adopter email already has an open order for the animal: nothing was written. */
export class OrderAlreadyOpenError extends Error {
  constructor(readonly petId: number) {
    super(`an open order for animal ${petId} has this adopter email`);
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

/** What a transition does besides its own order: the contract's ORDER_SIDE_EFFECTS, widened. */

const IN_REVIEW: readonly (TOrderStatus | undefined)[] = IN_REVIEW_ORDER_STATUSES;

/**
 * What the emails about orders need: the orders named, and the waitlisted orders of the animals
 * given (their approved adopter fell through), each with the animal's name. On the transaction's
 * connection, so it reads the change it is about.
 */
const MAIL_FACTS_STATEMENT = prepare((db, p: { ids: string[]; releasedPetIds: string[] }) =>
  db
    .selectFrom('orders')
    .innerJoin('pets', 'pets.id', 'orders.pet_id')
    .select([
      'orders.id as id',
      'orders.pet_id as petId',
      'pets.name as petName',
      'orders.status as status',
      'orders.adopter_name as adopterName',
      'orders.adopter_email as adopterEmail',
      'orders.placed_at as placedAt',
      'orders.decline_reason as declineReason',
      'orders.decline_note as declineNote',
    ])
    .where((eb) =>
      eb.or([
        eb('orders.id', '=', sql<string>`any(${p.ids}::bigint[])`),
        eb.and([
          eb('orders.pet_id', '=', sql<string>`any(${p.releasedPetIds}::bigint[])`),
          eb('orders.status', '=', 'waitlisted'),
        ]),
      ]),
    )
    .orderBy('orders.id'),
);

export type TOrderMailFacts = {
  orderId: number;
  petId: number;
  petName: string;
  status: TOrderStatus;
  adopterName: string;
  adopterEmail: string;
  placedAt: string;
  declineReason?: TDeclineReason;
  declineNote?: string;
};

/** For the change hook: the facts of `orderIds` and the waitlisted orders of `releasedPetIds`. */
export const orderMailFacts = async (
  client: PoolClient,
  orderIds: readonly number[],
  releasedPetIds: readonly number[],
): Promise<TOrderMailFacts[]> => {
  const { rows } = await MAIL_FACTS_STATEMENT.execute(client, {
    ids: orderIds.map(String),
    releasedPetIds: releasedPetIds.map(String),
  });
  return rows.map((row) => ({
    orderId: Number(row.id),
    petId: Number(row.petId),
    petName: row.petName,
    status: row.status,
    adopterName: row.adopterName,
    adopterEmail: row.adopterEmail,
    placedAt: row.placedAt.toISOString(),
    ...(row.declineReason === null ? {} : { declineReason: row.declineReason }),
    ...(row.declineNote === null ? {} : { declineNote: row.declineNote }),
  }));
};

/**
 * An adopter's applications, newest first, by their email compared as the open-order index does
 * (lower case; it arrives trimmed), by `orders_adopter_email_id_idx`: the email that lists them.
 */
const BY_ADOPTER_STATEMENT = prepare((db, p: { email: string; limit: number }) =>
  db
    .selectFrom('orders')
    .innerJoin('pets', 'pets.id', 'orders.pet_id')
    .select([
      'orders.id as id',
      'orders.pet_id as petId',
      'pets.name as petName',
      'orders.status as status',
      'orders.placed_at as placedAt',
    ])
    .where(sql<string>`lower(orders.adopter_email)`, '=', sql<string>`lower(${p.email})`)
    .orderBy(sql`lower(orders.adopter_email)`)
    .orderBy('orders.id', 'desc')
    .limit(p.limit),
);

/** One line of the email that lists an adopter's applications. */
export type TAdopterApplication = Pick<
  TOrderMailFacts,
  'orderId' | 'petId' | 'petName' | 'status' | 'placedAt'
>;

/** The newest `limit` applications made with `email` (any key's), on `client`. */
export const adopterApplications = async (
  client: TQueryable,
  email: string,
  limit: number,
): Promise<TAdopterApplication[]> => {
  const { rows } = await BY_ADOPTER_STATEMENT.execute(client, { email, limit });
  return rows.map((row) => ({
    orderId: Number(row.id),
    petId: Number(row.petId),
    petName: row.petName,
    status: row.status,
    placedAt: row.placedAt.toISOString(),
  }));
};

/**
 * The applications placed in (since, until], oldest first, by `orders_placed_at_idx`; not those
 * still unconfirmed (a confirmation places its order anew, at the moment it happens).
 */
const PLACED_BETWEEN_STATEMENT = prepare((db, p: { since: Date; until: Date; limit: number }) =>
  db
    .selectFrom('orders')
    .innerJoin('pets', 'pets.id', 'orders.pet_id')
    .select([
      'orders.id as id',
      'pets.name as petName',
      'orders.adopter_name as adopterName',
      'orders.placed_at as placedAt',
    ])
    .where('orders.placed_at', '>', p.since)
    .where('orders.placed_at', '<=', p.until)
    .where('orders.status', '<>', ORDER_CONFIRMATION.from)
    .orderBy('orders.placed_at')
    .orderBy('orders.id')
    .limit(p.limit),
);

/** One line of the staff's digest of new applications. */
export type TPlacedApplication = {
  orderId: number;
  petName: string;
  adopterName: string;
  placedAt: string;
};

/** The first `limit` applications placed in (since, until], oldest first, on `client`. */
export const applicationsPlacedBetween = async (
  client: TQueryable,
  since: Date,
  until: Date,
  limit: number,
): Promise<TPlacedApplication[]> => {
  const { rows } = await PLACED_BETWEEN_STATEMENT.execute(client, { since, until, limit });
  return rows.map((row) => ({
    orderId: Number(row.id),
    petName: row.petName,
    adopterName: row.adopterName,
    placedAt: row.placedAt.toISOString(),
  }));
};

/**
 * One order whose status changed in a transition's transaction: the order the request named, or
 * one changed with it (the others waitlisted by an approval, declined by a completion). `from` is
 * absent for a placement.
 */
export type TOrderChange = {
  orderId: number;
  petId: number;
  from?: TOrderStatus | undefined;
  to: TOrderStatus;
  /**
   * Who made a transition's named change, as its history entry says (`adopter` for a withdrawal):
   * what it causes may depend on it. Absent for placements, confirmations and side effects.
   */
  by?: string | undefined;
};

/**
 * What a change must cause besides itself (the API writes the emails' outbox here): called once
 * per transaction with all of its changes, the named order first, then the others in arrival (id)
 * order, on the transaction's own connection, so whatever it writes commits or rolls back with the
 * change.
 */
export type TOrderChangesHook = (
  client: PoolClient,
  changes: readonly TOrderChange[],
  /** The animal's status, when the change moved it (an approval, a completion, a release). */
  petChange?: TPetStatusChange,
) => Promise<void>;

/** An animal's status moved by a change of its orders. */
export type TPetStatusChange = { petId: number; from: TPetStatus; to: TPetStatus };

/** The orders named, with the key that placed each (who may read their events). */
const EVENT_ORDERS_STATEMENT = prepare((db, p: { ids: string[] }) =>
  db
    .selectFrom('orders')
    .select([...ORDER_COLUMNS, 'api_key_id as apiKeyId'])
    .where('id', '=', sql<string>`any(${p.ids}::bigint[])`),
);

/**
 * The events of a transaction's order changes, as a change hook: one `order.<status>` per changed
 * order (read as it is now, for the key that placed it), and `pet.status_changed` when the change
 * moved the animal (`mediaBaseUrl`: its photos' addresses).
 */
export const orderEventsHook =
  (mediaBaseUrl: string): TOrderChangesHook =>
  async (client, changes, petChange) => {
    const { rows } = await EVENT_ORDERS_STATEMENT.execute(client, {
      ids: changes.map((change) => String(change.orderId)),
    });
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const events: TNewEvent[] = [];
    for (const change of changes) {
      const row = byId.get(change.orderId);
      if (row) {
        const order = toOrder(row);
        events.push({
          type: orderEventType(change.to),
          // Events reach partners (their feed, their webhooks): who by key, never a staff name.
          data: {
            ...order,
            history: order.history.map(({ byName: _byName, ...entry }) => entry),
          },
          apiKeyId: row.apiKeyId,
        });
      }
    }
    await recordEvents(client, events);
    if (petChange) {
      await recordPetEvents(client, petChange.petId, ['pet.status_changed'], mediaBaseUrl);
    }
  };

/** Several hooks, one after the other, on the same transaction. */
export const allOf =
  (...hooks: readonly TOrderChangesHook[]): TOrderChangesHook =>
  async (client, changes, petChange) => {
    for (const hook of hooks) {
      await hook(client, changes, petChange);
    }
  };

const inReviewDelta = (changes: readonly TOrderChange[]): number =>
  changes.reduce(
    (delta, { from, to }) =>
      delta + Number(IN_REVIEW.includes(to)) - Number(IN_REVIEW.includes(from)),
    0,
  );

/** A transition as the service asks for it: who, and the decline's reason and note. */
/** Who changed something, for the audit log: the key, and the person behind it if any. */
export type TTransitionRequest = {
  action: TOrderAction;
  /** Display start of the key, for the histories. */
  by: string;
  /** The person who made the change through the store's site (a session credential's owner). */
  byName?: string | undefined;
  /** For a staff caller: the audit log's actor (audit.repository.ts), written with the change. */
  actor?: TAuditActor | undefined;
  decline?: { reason: TDeclineReason; note?: string | undefined } | undefined;
};

const scopeParam = (scope: TOrderScope): string =>
  scope.apiKeyId === null ? '' : String(scope.apiKeyId);

export class OrdersRepository {
  constructor(
    private readonly pool: Pool,
    private readonly onChanges: TOrderChangesHook = async () => undefined,
  ) {}

  /**
   * Places an order (an application) for an available animal: in one transaction the animal
   * counts one more application in review (unless it starts `unconfirmed`) and the order is
   * created; the animal's status does not change. Refused (nothing written) when the animal does not exist (UnknownPetError), is not
   * available (PetNotAvailableError), or has an open order with this adopter email
   * (OrderAlreadyOpenError, from the unique index).
   */
  place(order: TNewOrderRecord): Promise<TOrder> {
    const petId = String(order.petId);
    const status = order.status ?? ORDER_CONFIRMATION.to;
    return withTransaction(this.pool, async (client) => {
      const inReview = IN_REVIEW.includes(status);
      if (!(await petsInOrders.admitApplication(client, petId, inReview))) {
        throw await this.refusalFor(client, order.petId);
      }
      const { rows } = await INSERT_STATEMENT.execute(client, {
        petId,
        apiKeyId: String(order.apiKeyId),
        status,
        by: order.by,
        adopterName: order.adopter.name,
        adopterEmail: order.adopter.email,
        adopterPhone: order.adopter.phone ?? null,
        message: order.message ?? null,
        // An empty answer is no answer.
        household: order.household || null,
        otherAnimals: order.otherAnimals || null,
      });
      const placed = toOrder(rows[0] as TOrderRow);
      await this.onChanges(client, [
        { orderId: placed.id, petId: placed.petId, to: placed.status },
      ]);
      return placed;
    }).catch((error: unknown) => {
      // One open order per animal and adopter email; any other refusal (the outbox's rows, say) is
      // not this one.
      throw isUniqueViolation(error, 'orders_one_open_per_pet_adopter_key')
        ? new OrderAlreadyOpenError(order.petId)
        : error;
    });
  }

  private async refusalFor(db: TQueryable, petId: number): Promise<Error> {
    const status = await petsInOrders.statusOf(db, String(petId));
    return status ? new PetNotAvailableError(petId, status) : new UnknownPetError(petId);
  }

  /**
   * Applies a transition of the contract's ORDER_TRANSITIONS and its ORDER_SIDE_EFFECTS in one
   * transaction: the order, the animal's other orders, the animal (status, count in review), and
   * `onChanges` with every order changed. Refused, with nothing changed, when the order is
   * not visible in `scope` (OrderNotFoundError), not in a status the transition starts from
   * (OrderStatusError), or, to approve, its animal is not available (PetNotAvailableError).
   */
  transition(id: number, scope: TOrderScope, request: TTransitionRequest): Promise<TOrder> {
    const { action, by, byName, decline } = request;
    const { from, to } = ORDER_TRANSITIONS[action];
    const effects: TOrderSideEffects = ORDER_SIDE_EFFECTS[action];
    return withTransaction(this.pool, async (client) => {
      const named = await this.get(id, scope, client);
      if (!named) {
        throw new OrderNotFoundError(id);
      }
      const petId = String(named.petId);
      // The animal's row first: every change of this animal's orders queues here.
      const petStatus = await petsInOrders.lockStatusOf(client, petId);
      const isAllowed = (from as readonly TOrderStatus[]).includes(named.status);
      if (action === 'approve' && isAllowed && petStatus !== 'available') {
        throw new PetNotAvailableError(named.petId, petStatus ?? 'sold');
      }
      const { rows } = await TRANSITION_STATEMENTS.execute(client, {
        id: String(id),
        apiKeyId: scopeParam(scope),
        from,
        to,
        by,
        byName: byName ?? null,
        declineReason: decline?.reason ?? null,
        declineNote: decline?.note || null,
      }).catch((error: unknown) => {
        // The database's own guard, one approved-or-completed order per animal: an animal made
        // available again by hand after an adoption was completed.
        throw isUniqueViolation(error, 'orders_one_approved_per_pet_key')
          ? new PetNotAvailableError(named.petId, 'sold')
          : error;
      });
      const row = rows[0];
      if (!row) {
        const current = await this.get(id, scope, client);
        throw new OrderStatusError(id, current?.status ?? named.status);
      }
      const changes: TOrderChange[] = [
        { orderId: id, petId: named.petId, from: row.previous, to, by },
      ];
      if (request.actor) {
        // Who did it, in the change's own transaction: an entry exists exactly when it committed.
        await recordAudit(client, {
          actorAccountId: request.actor.accountId,
          actorApiKeyId: request.actor.apiKeyId,
          actorName: request.actor.name,
          action: `order.${to}`,
          targetType: 'order',
          targetId: String(id),
          details: { from: row.previous },
        });
      }
      if (effects.others) {
        const others = await OTHERS_STATEMENT.execute(client, {
          petId,
          exceptId: String(id),
          from: effects.others.from,
          to: effects.others.to,
          by,
          byName: byName ?? null,
          declineReason: effects.others.reason ?? null,
        });
        const changed = others.rows
          .map((other) => ({
            orderId: Number(other.id),
            petId: named.petId,
            from: other.previous,
            to: effects.others?.to ?? to,
          }))
          .sort((a, b) => a.orderId - b.orderId);
        changes.push(...changed);
      }
      const newPetStatus =
        effects.pet ?? (row.previous === 'approved' ? effects.petIfWasApproved : undefined);
      await petsInOrders.afterOrderChanges(client, petId, {
        status: newPetStatus ?? null,
        inReviewDelta: inReviewDelta(changes),
      });
      const petChange =
        newPetStatus && petStatus && newPetStatus !== petStatus
          ? { petId: named.petId, from: petStatus, to: newPetStatus }
          : undefined;
      await this.onChanges(client, changes, petChange);
      return toOrder(row);
    });
  }

  /**
   * Confirms an `unconfirmed` order (its adopter opened the link of the first email): `placed`, or
   * `waitlisted` when the animal is on hold for an approved adopter, and counted in review; the
   * change reaches `onChanges` like a placement's. Refused, with nothing changed, for no such
   * order (OrderNotFoundError) or one that is not unconfirmed (OrderStatusError).
   */
  confirm(id: number, by: string): Promise<TOrder> {
    return withTransaction(this.pool, async (client) => {
      const named = await this.get(id, { apiKeyId: null }, client);
      if (!named) {
        throw new OrderNotFoundError(id);
      }
      const petId = String(named.petId);
      // The animal's row first, as for every change of its orders: an approval cannot slip in
      // between the choice of status below and the update.
      const petStatus = await petsInOrders.lockStatusOf(client, petId);
      const to =
        petStatus === 'available' ? ORDER_CONFIRMATION.to : ORDER_CONFIRMATION.toWhenOnHold;
      const { rows } = await CONFIRM_STATEMENT.execute(client, { id: String(id), to, by });
      const row = rows[0];
      if (!row) {
        const current = await this.get(id, { apiKeyId: null }, client);
        throw new OrderStatusError(id, current?.status ?? named.status);
      }
      const changes: TOrderChange[] = [{ orderId: id, petId: named.petId, from: row.previous, to }];
      await petsInOrders.afterOrderChanges(client, petId, {
        status: null,
        inReviewDelta: inReviewDelta(changes),
      });
      await this.onChanges(client, changes);
      return toOrder(row);
    });
  }

  /**
   * Cancels the orders left unconfirmed since before `before`, at most `limit` of them (the
   * oldest), in one transaction with their `onChanges`; answers how many. Nothing else changes:
   * an unconfirmed order is not counted on its animal.
   */
  expireUnconfirmed(before: Date, limit: number): Promise<number> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await EXPIRE_STATEMENT.execute(client, { before, limit });
      if (rows.length === 0) {
        return 0;
      }
      const changes = rows
        .map((row) => ({
          orderId: Number(row.id),
          petId: Number(row.petId),
          from: ORDER_CONFIRMATION.from,
          to: ORDER_CONFIRMATION.expiresTo,
        }))
        .sort((a, b) => a.orderId - b.orderId);
      await this.onChanges(client, changes);
      return rows.length;
    });
  }

  /** An order's staff notes, oldest first; null when no order has this id. */
  async notes(orderId: number): Promise<TOrderNote[] | null> {
    const order = await this.get(orderId, { apiKeyId: null });
    if (!order) {
      return null;
    }
    const { rows } = await NOTES_STATEMENT.execute(this.pool, {
      orderId: String(orderId),
      limit: ORDER_NOTES_MAX,
    });
    return rows.map(toNote);
  }

  /**
   * Adds a staff note, signed `author`; null when no order has this id, OrderNotesFullError when
   * it has ORDER_NOTES_MAX already.
   */
  addNote(
    orderId: number,
    note: {
      apiKeyId: bigint;
      author: string;
      kind: TOrderNoteKind;
      text: string;
      /** For a staff caller: the audit log's actor, written with the note. */
      actor?: TAuditActor | undefined;
    },
    /** What the note causes besides itself (a question's email), in its transaction. */
    onAdded?: (client: PoolClient, note: TOrderNote) => Promise<void>,
  ): Promise<TOrderNote | null> {
    return withTransaction(this.pool, async (client) => {
      const locked = await ORDER_LOCK_STATEMENT.execute(client, { id: String(orderId) });
      if (locked.rows.length === 0) {
        return null;
      }
      const counted = await NOTE_COUNT_STATEMENT.execute(client, { orderId: String(orderId) });
      if (Number(counted.rows[0]?.total ?? 0) >= ORDER_NOTES_MAX) {
        throw new OrderNotesFullError(orderId);
      }
      const { rows } = await INSERT_NOTE_STATEMENT.execute(client, {
        orderId: String(orderId),
        apiKeyId: String(note.apiKeyId),
        author: note.author,
        kind: note.kind,
        text: note.text,
      });
      const added = toNote(rows[0] as Parameters<typeof toNote>[0]);
      if (note.actor) {
        await recordAudit(client, {
          actorAccountId: note.actor.accountId,
          actorApiKeyId: note.actor.apiKeyId,
          actorName: note.actor.name,
          action: `order.${note.kind}_added`,
          targetType: 'order',
          targetId: String(orderId),
          details: { noteId: added.id },
        });
      }
      await onAdded?.(client, added);
      return added;
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

  /**
   * The orders visible in `scope`, newest first (or, `sort=updatedAt`, the one changed longest ago
   * first), as a keyset page whose cursor keeps the filters.
   */
  async list(scope: TOrderScope, filter: TOrderFilter): Promise<TPage<TOrder>> {
    const { limit, before, ...filters } = filter;
    const byUpdatedAt = filter.sort === 'updatedAt';
    // An absent filter's value is empty: it picks the shape without that filter.
    const params: TListParams = {
      apiKeyId: scopeParam(scope),
      limit: limit + 1,
      status: filter.status as TOrderStatus,
      petId: filter.petId ? String(filter.petId) : '',
      updatedSince: filter.updatedSince
        ? new Date(Date.parse(filter.updatedSince)).toISOString()
        : '',
      before: before ? String(before) : '',
      // Both or neither: a cursor of sort=updatedAt carries the last order's updatedAt and id.
      after: byUpdatedAt && filter.updatedAfter && before ? filter.updatedAfter : '',
      ...searchParams(filter.q),
    };
    const statements = byUpdatedAt ? LIST_BY_UPDATED_AT_STATEMENTS : LIST_STATEMENTS;
    const { rows } = await statements.execute(this.pool, params);
    const { updatedAfter: _, ...kept } = filters;
    const page = toPage(rows, limit, ORDERS_CURSOR, kept);
    const last = page.items[page.items.length - 1];
    if (byUpdatedAt && page.nextCursor !== null && last) {
      // The next page starts after the last order's (updatedAt, id): the cursor carries both.
      return {
        items: page.items.map(toOrder),
        nextCursor: ORDERS_CURSOR.encode(last.id, {
          ...kept,
          updatedAfter: last.updatedAt.toISOString(),
        }),
      };
    }
    return { items: page.items.map(toOrder), nextCursor: page.nextCursor };
  }
}
