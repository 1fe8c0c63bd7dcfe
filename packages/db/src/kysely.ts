import {
  type Compilable,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import type { DB } from './generated/kysely/types.js';

/**
 * Typed SQL on the same `pg` pool as Prisma, with the table types generated from
 * prisma/schema.prisma (the database's own names: `pets.category_id`, not `categoryId`). `int8`
 * columns (the ids) arrive as strings, as `pg` reads them.
 *
 * Two ways to use it:
 * - createKysely(pool): a Kysely instance for ordinary queries; it compiles each query it runs.
 * - prepare(...): for the hot paths. The query is compiled once, when the module loads, and each
 *   request only sends the SQL text and its values with `pool.query`: no builder, no compiler, no
 *   plugin pass per request (the same work as a hand-written `pool.query(sql, params)`).
 */
export const createKysely = (pool: Pool): Kysely<DB> =>
  new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

/** Builds and compiles queries only; it can run none (Kysely's documented "compile-only" setup). */
const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Stands for a request-time value while a prepared query is compiled. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** A pool, or a client checked out of it (inside a transaction). */
export type TQueryable = Pool | PoolClient;

export type TPreparedQuery<TParams, TRow extends QueryResultRow> = {
  /** The SQL sent to PostgreSQL, `$1`... in order: for reviews and snapshot tests. */
  readonly sql: string;
  /** The name of the request-time value behind each `$n` (`null`: a value fixed at prepare). */
  readonly parameterNames: readonly (string | null)[];
  /**
   * One `pool.query` with the prepared SQL and the values of `params` in `$n` order; the promise is
   * pg's own (no extra await): `const { rows } = await query.execute(pool, params)`.
   */
  execute: (db: TQueryable, params: TParams) => Promise<QueryResult<TRow>>;
};

/**
 * The row type of a prepared statement, as Kysely infers it from the generated `DB` types: a
 * repository's row type is its statement's, never written by hand.
 */
export type TRowOf<TQuery> =
  TQuery extends TPreparedQuery<infer _TParams, infer TRow>
    ? TRow
    : TQuery extends TShapedQuery<infer _TParams, infer TRow>
      ? TRow
      : never;

/**
 * Compiles the query `build` returns once, with placeholders for the values of `params`, and
 * returns how to run it. Declare prepared queries at module level, one per query shape (a shape is
 * the SQL text: an optional filter is a second shape, so prepare each combination you need).
 *
 *   const listNewest = prepare((db, p: { limit: number; before: string }) =>
 *     db.selectFrom('pets').select(['id', 'name']).where('id', '<', p.before)
 *       .orderBy('id', 'desc').limit(p.limit));
 *   const { rows } = await listNewest.execute(pool, { limit: 21, before: '42' }); // typed rows
 *
 * Pass each `p.x` to Kysely as a value, untouched: arithmetic or string building on it happens at
 * prepare time, not per request (compute `limit + 1` before execute). A list value (`in`) needs one
 * placeholder per element: use `= any(${p.ids})` with an array parameter instead.
 */
export const prepare = <TParams extends Record<string, unknown>, TRow extends QueryResultRow>(
  build: (db: Kysely<DB>, params: TParams) => Compilable<TRow>,
): TPreparedQuery<TParams, TRow> => {
  const placeholders = new Proxy({} as TParams, {
    get: (_target, name) => new Placeholder(String(name)),
  });
  const { sql, parameters } = build(compiler, placeholders).compile();
  const parameterNames = parameters.map((value) =>
    value instanceof Placeholder ? value.name : null,
  );
  // Values fixed at prepare time (a literal in the builder) are sent as they were compiled.
  const fixed = parameters.map((value) => (value instanceof Placeholder ? undefined : value));
  const count = parameterNames.length;
  return {
    sql,
    parameterNames,
    execute: (db, params) => {
      const values: unknown[] = new Array(count);
      for (let index = 0; index < count; index++) {
        const name = parameterNames[index];
        values[index] = name === null ? fixed[index] : params[name as keyof TParams];
      }
      return db.query<TRow>(sql, values);
    },
  };
};

export type TShapedQuery<TParams, TRow extends QueryResultRow> = {
  /** The prepared statement that these values pick: for EXPLAIN and reviews. */
  statementFor: (params: TParams) => TPreparedQuery<TParams, TRow>;
  /** `statementFor(params).execute(db, params)`. */
  execute: (db: TQueryable, params: TParams) => Promise<QueryResult<TRow>>;
};

/**
 * A query whose filters come and go (a list with optional filters): one prepared statement per
 * combination of the `optional` parameters (up to 30), each compiled once, the first time a
 * request needs it. `build` is called once per combination with `has(name)`: whether that filter
 * is in the statement being prepared. A request runs the statement of the optional values it
 * gives (truthy ones), picked with a bitmask: after a shape's first request, nothing is compiled
 * or allocated per request beyond what execute() does.
 *
 *   const list = prepareShapes(['status'], (db, p: { status: string; limit: number }, has) => {
 *     let query = db.selectFrom('pets').select(['id', 'name']);
 *     if (has('status')) query = query.where('status', '=', p.status);
 *     return query.orderBy('id', 'desc').limit(p.limit);
 *   });
 */
/** The compiled shapes one `prepareShapes` keeps (a few KiB each); an application uses dozens. */
const MAX_CACHED_SHAPES = 256;

export const prepareShapes = <TParams extends Record<string, unknown>, TRow extends QueryResultRow>(
  optional: readonly (keyof TParams & string)[],
  build: (
    db: Kysely<DB>,
    params: TParams,
    has: (name: keyof TParams & string) => boolean,
  ) => Compilable<TRow>,
): TShapedQuery<TParams, TRow> => {
  if (optional.length > 30) {
    throw new Error('prepareShapes: at most 30 optional parameters (a shape is a 31-bit mask)');
  }
  const bitOf = (name: string): number => {
    const index = optional.indexOf(name);
    if (index < 0) {
      throw new Error(`prepareShapes: ${name} is not one of the optional parameters`);
    }
    return 1 << index;
  };
  const prepareShape = (shape: number) =>
    prepare((db, params: TParams) => build(db, params, (name) => (shape & bitOf(name)) !== 0));
  // Each shape compiled the first time a request needs it: a list of twenty filters has a
  // million shapes, of which an application uses a few dozen. The shape without any is compiled
  // now, so that a mistake in `build` (a filter not in `optional`) shows when the module loads.
  const statements = new Map<number, TPreparedQuery<TParams, TRow>>([[0, prepareShape(0)]]);
  const count = optional.length;
  const statementFor = (params: TParams): TPreparedQuery<TParams, TRow> => {
    let shape = 0;
    for (let bit = 0; bit < count; bit++) {
      if (params[optional[bit] as keyof TParams]) {
        shape |= 1 << bit;
      }
    }
    let statement = statements.get(shape);
    if (statement === undefined) {
      statement = prepareShape(shape);
      if (statements.size >= MAX_CACHED_SHAPES) {
        // A client walking every combination of filters must not grow the process without
        // bound: the oldest shape compiled (never the empty one) makes room, and is compiled
        // again if it is asked for again.
        const [, oldest] = statements.keys();
        if (oldest !== undefined) {
          statements.delete(oldest);
        }
      }
      statements.set(shape, statement);
    }
    return statement;
  };
  return { statementFor, execute: (db, params) => statementFor(params).execute(db, params) };
};

export type { DB } from './generated/kysely/types.js';
