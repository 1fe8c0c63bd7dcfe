import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from './generated/prisma/client.js';

export type TPrismaClient = PrismaClient;

/**
 * Idle connections that PostgreSQL closes (a restart, a dropped test database: 57P01) are reported
 * on the pool, which has already discarded them; the next query opens a new connection, and a query
 * that cannot get one fails itself. Unheard, that event would crash the process.
 */
const ignoreIdleConnectionError = (): void => undefined;

/**
 * How long a pool's connections may wait on PostgreSQL, so that a hung server (stopped, or a
 * network that drops packets) costs a bounded time instead of a hang:
 * - `statementTimeoutMs`: PostgreSQL cancels any statement running longer (`statement_timeout`,
 *   sent with each new connection; the query fails with 57014 and the connection stays usable).
 * - `queryTimeoutMs`: the client's own limit on waiting for an answer (`query_timeout`), for a
 *   server too hung to cancel anything; the connection is then discarded. Default: the statement
 *   timeout plus one second, so that PostgreSQL's own cancellation comes first when it can.
 * - `connectTimeoutMs`: waiting for a free connection of a full pool, or for a new connection to
 *   be established (`connectionTimeoutMillis`).
 * Unset, statements may run for as long as they take (migrations, commands) and a connection is
 * awaited for 10 s.
 */
export type TPoolTimeouts = {
  statementTimeoutMs?: number;
  queryTimeoutMs?: number;
  connectTimeoutMs?: number;
};

/** When queryTimeoutMs is not given: how much longer than the statement timeout the client waits. */
export const QUERY_TIMEOUT_MARGIN_MS = 1_000;

/**
 * A `pg` pool of at most `poolSize` connections. Call `end()` to close it, before its database is
 * dropped. `onError` hears the errors of idle connections (see above); by default they are ignored.
 */
export const createPool = (
  url: string,
  poolSize = 10,
  onError: (error: Error) => void = ignoreIdleConnectionError,
  { statementTimeoutMs, queryTimeoutMs, connectTimeoutMs = 10_000 }: TPoolTimeouts = {},
): Pool => {
  const clientTimeoutMs =
    queryTimeoutMs ??
    (statementTimeoutMs === undefined ? undefined : statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS);
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    application_name: 'pets-api',
    ...(statementTimeoutMs === undefined ? {} : { statement_timeout: statementTimeoutMs }),
    ...(clientTimeoutMs === undefined ? {} : { query_timeout: clientTimeoutMs }),
  });
  pool.on('error', onError);
  return pool;
};

/**
 * Prisma on the `pg` driver through @prisma/adapter-pg (no Rust query engine). The same for a real
 * PostgreSQL and for the embedded one. Given a URL, it opens a pool of at most `poolSize`
 * connections of its own, which `$disconnect()` closes; given a pool, it shares it (the API sends
 * its hottest statements straight to that pool, see ./kysely.ts) and leaves closing it to the
 * caller.
 */
export const createPrismaClient = (database: string | Pool, poolSize = 10): PrismaClient =>
  new PrismaClient({
    adapter:
      typeof database === 'string'
        ? new PrismaPg(createPool(database, poolSize), { disposeExternalPool: true })
        : new PrismaPg(database),
  });
