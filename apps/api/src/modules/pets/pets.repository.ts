import type { TPage, TPet, TPetStatus, TPetsListFilters } from '@pets/contract';
// The light entries at run time: the bench's floor loads this file, and needs no router.
import { toPage } from '@pets/contract/rules';
import { PETS_CURSOR } from '@pets/contract/schemas';
import { prepare, prepareShapes, sql } from '@pets/db';
import type { Pool } from 'pg';
import { withTransaction } from '../../core/transaction';

/**
 * The pets table: every statement about pets and the one row -> `TPet` mapping. No Nest in this
 * file: the bench's floor (plain Fastify + pg) sends these same statements through it, imported
 * from `@pets/api/pets-repository`, so that the API and the floor cannot drift apart.
 *
 * listPets and createPet are the API's hottest statements. Each is compiled once, when this module
 * loads (`prepare`), so a request costs one `pool.query` with ready SQL and no builder, compiler or
 * ORM work (Prisma's per-query work cost more CPU than the query itself: bench/README.md). `int8`
 * columns arrive as strings; toPet turns them into numbers.
 */

const PET_COLUMNS = ['id', 'name', 'category_id as categoryId', 'status'] as const;

type TPetRow = { id: string; name: string; categoryId: string; status: TPetStatus };

const toPet = (row: TPetRow): TPet => ({
  id: Number(row.id),
  name: row.name,
  categoryId: Number(row.categoryId),
  status: row.status,
});

/**
 * A page request, the cursor already read (`before`: the page holds ids below it); the filters
 * are the contract's (`id`: at most PET_IDS_MAX distinct ids).
 */
export type TPetFilter = TPetsListFilters & {
  limit: number;
  before?: bigint | undefined;
};

type TListParams = {
  limit: number;
  status: TPetStatus;
  categoryId: string;
  ids: readonly number[] | undefined;
  before: string;
};

/**
 * The list statements, one per filter shape (which of categoryId, status, ids and before are
 * given). Each filter combination has an index whose leading columns are the filtered ones and
 * whose last is `id DESC` (pets_status_id_idx, pets_category_id_id_idx,
 * pets_category_id_status_id_idx), so a page is one index range scan; when the filter keeps most
 * rows, PostgreSQL may prefer walking the primary key backwards and skipping the few others, which
 * is as cheap (checked with EXPLAIN ANALYZE on 300,000 rows). The `id` filter is one array
 * parameter, `id = any($n)`, whatever the number of ids (one statement, not one per count): the
 * primary key finds them, in order, with the other filters checked on those few rows
 * (pets.repository.test.ts EXPLAINs it).
 */
const LIST_STATEMENTS = prepareShapes(
  ['categoryId', 'status', 'ids', 'before'],
  (db, p: TListParams, has) => {
    let query = db.selectFrom('pets').select(PET_COLUMNS);
    if (has('categoryId')) {
      query = query.where('category_id', '=', p.categoryId);
    }
    if (has('status')) {
      query = query.where('status', '=', p.status);
    }
    if (has('ids')) {
      query = query.where('id', '=', (eb) => eb.fn<string>('any', [eb.val(p.ids)]));
    }
    if (has('before')) {
      query = query.where('id', '<', p.before);
    }
    return query.orderBy('id', 'desc').limit(p.limit);
  },
);

const INSERT_STATEMENT = prepare(
  (db, p: { name: string; categoryId: string; status: TPetStatus }) =>
    db
      .insertInto('pets')
      .values({ name: p.name, category_id: p.categoryId, status: p.status })
      .returning(PET_COLUMNS),
);

const GET_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('pets').select(PET_COLUMNS).where('id', '=', p.id),
);

/** The animal's row, locked until the transaction ends: updatePet's check and write in one. */
const LOCK_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('pets').select(PET_COLUMNS).where('id', '=', p.id).forUpdate(),
);

/** Whether the animal has an open (placed or approved) order. */
const OPEN_ORDER_STATEMENT = prepare((db, p: { petId: string }) =>
  db
    .selectFrom('orders')
    .select('id')
    .where('pet_id', '=', p.petId)
    .where('status', 'in', ['placed', 'approved'])
    .limit(1),
);

type TUpdateParams = {
  id: string;
  name: string | null;
  categoryId: string | null;
  status: TPetStatus | null;
};

/** A field given as null keeps its value: one statement for every combination of fields. */
const UPDATE_STATEMENT = prepare((db, p: TUpdateParams) =>
  db
    .updateTable('pets')
    .set({
      name: sql`coalesce(${p.name}::varchar, name)`,
      category_id: sql`coalesce(${p.categoryId}::bigint, category_id)`,
      status: sql`coalesce(${p.status}::pet_status, status)`,
    })
    .where('id', '=', p.id)
    .returning(PET_COLUMNS),
);

/**
 * The values of a list request; an absent filter's is empty, which picks the shape without it (so
 * it is not sent: that shape has no `$n` for it).
 */
const listParams = ({ limit, status, categoryId, id, before }: TPetFilter): TListParams => ({
  limit: limit + 1,
  status: status as TPetStatus,
  categoryId: categoryId ? String(categoryId) : '',
  ids: id,
  before: before ? String(before) : '',
});

/** The statement a list request sends, with its values in `$n` order: for EXPLAIN and reviews. */
export const listPetsStatement = (filter: TPetFilter): { sql: string; values: unknown[] } => {
  const params = listParams(filter);
  const statement = LIST_STATEMENTS.statementFor(params);
  return {
    sql: statement.sql,
    values: statement.parameterNames.map((name) => params[name as keyof TListParams]),
  };
};

/** A categoryId that names no category: the foreign key refused the row. */
export class UnknownCategoryError extends Error {
  constructor(readonly categoryId: number) {
    super(`no category has id ${categoryId}`);
  }
}

/** A status change refused because the animal has an open adoption order. */
export class OpenOrderConflictError extends Error {
  constructor(readonly petId: number) {
    super(`animal ${petId} has an open order`);
  }
}

const FOREIGN_KEY_VIOLATION = '23503';

const isForeignKeyViolation = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION;

export class PetsRepository {
  constructor(private readonly db: Pool) {}

  /**
   * A keyset page, newest first: `limit + 1` rows fetched, the extra one tells that more exist.
   * The next page's cursor carries the filters.
   */
  async list(filter: TPetFilter): Promise<TPage<TPet>> {
    const { rows } = await LIST_STATEMENTS.execute(this.db, listParams(filter));
    const page = toPage(rows, filter.limit, PETS_CURSOR, filter);
    return { items: page.items.map(toPet), nextCursor: page.nextCursor };
  }

  /** Rejects with UnknownCategoryError when `categoryId` names no category. */
  create(pet: { name: string; categoryId: number; status: TPetStatus }): Promise<TPet> {
    const { name, categoryId, status } = pet;
    return INSERT_STATEMENT.execute(this.db, { name, categoryId: String(categoryId), status }).then(
      ({ rows }) => toPet(rows[0] as TPetRow),
      (error: unknown) => {
        throw isForeignKeyViolation(error) ? new UnknownCategoryError(pet.categoryId) : error;
      },
    );
  }

  async get(id: number): Promise<TPet | null> {
    const { rows } = await GET_STATEMENT.execute(this.db, { id: String(id) });
    const row = rows[0];
    return row ? toPet(row) : null;
  }

  /**
   * Changes the fields given, in one transaction that locks the animal's row: null when no
   * animal has this id; OpenOrderConflictError when the status would become anything but
   * `pending` while an order is open (placing an order and the transitions lock the same row, so
   * no order opens or closes between the check and the write); UnknownCategoryError for a
   * categoryId that names no category.
   */
  update(
    id: number,
    changes: {
      name?: string | undefined;
      categoryId?: number | undefined;
      status?: TPetStatus | undefined;
    },
  ): Promise<TPet | null> {
    const params: TUpdateParams = {
      id: String(id),
      name: changes.name ?? null,
      categoryId: changes.categoryId === undefined ? null : String(changes.categoryId),
      status: changes.status ?? null,
    };
    return withTransaction(this.db, async (client) => {
      const locked = await LOCK_STATEMENT.execute(client, { id: params.id });
      if (locked.rows.length === 0) {
        return null;
      }
      if (params.status !== null && params.status !== 'pending') {
        const open = await OPEN_ORDER_STATEMENT.execute(client, { petId: params.id });
        if (open.rows.length > 0) {
          throw new OpenOrderConflictError(id);
        }
      }
      const { rows } = await UPDATE_STATEMENT.execute(client, params);
      return toPet(rows[0] as TPetRow);
    }).catch((error: unknown) => {
      throw isForeignKeyViolation(error) && changes.categoryId !== undefined
        ? new UnknownCategoryError(changes.categoryId)
        : error;
    });
  }
}
