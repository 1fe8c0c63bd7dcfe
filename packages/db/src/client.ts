import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, type PoolClient } from 'pg';
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
 * - `queryTimeoutMs`: the client's own limit on waiting for an answer, for a server too hung to
 *   cancel anything: the connection is destroyed and its query fails with "Query read timeout",
 *   pg's own words for its `query_timeout`. Default: the statement timeout plus one second, so that
 *   PostgreSQL's own cancellation comes first when it can. It is kept by one watchdog per pool
 *   (`watchQueries`), not by pg's `query_timeout`, which arms a timer per query whose closure holds
 *   the query: with it, every page's rows outlived two scavenges and were promoted to the old
 *   generation (bench/README.md, "It is the API's pool options").
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

/** pg's error for an answer that did not come in time; the API's fault map knows it (a `503`). */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/** The query a pg client is waiting on, if any (pg 8 keeps it in `_activeQuery`). */
type TWatchedClient = PoolClient & {
  _activeQuery?: object | null;
  connection?: { stream?: { destroy: (error?: Error) => void } };
};

/**
 * Ends any query of the pool's connections that has waited longer than `timeoutMs` for its answer:
 * its connection is destroyed with QUERY_READ_TIMEOUT, which fails the query (and any queued behind
 * it) and makes the pool discard the connection. One interval for the whole pool, sampling each
 * connection's query every `timeoutMs / 4` (at most 250 ms): a query ends between `timeoutMs` and
 * `timeoutMs` plus two samples after it was sent, and a query that is answered in time costs
 * nothing at all. The interval runs only while the pool has connections, and never keeps the
 * process alive.
 */
const watchQueries = (pool: Pool, timeoutMs: number): void => {
  const sampleMs = Math.max(10, Math.min(250, Math.floor(timeoutMs / 4)));
  const watched = new Map<TWatchedClient, { query: object | null; since: number }>();
  let interval: NodeJS.Timeout | undefined;
  const sample = () => {
    const now = performance.now();
    for (const [client, seen] of watched) {
      const query = client._activeQuery ?? null;
      if (query !== seen.query) {
        seen.query = query;
        seen.since = now;
      } else if (query !== null && now - seen.since >= timeoutMs) {
        seen.query = null;
        client.connection?.stream?.destroy(new Error(QUERY_READ_TIMEOUT));
      }
    }
  };
  pool.on('connect', (client) => {
    watched.set(client as TWatchedClient, { query: null, since: 0 });
    if (interval === undefined) {
      interval = setInterval(sample, sampleMs);
      interval.unref();
    }
  });
  pool.on('remove', (client) => {
    watched.delete(client as TWatchedClient);
    if (watched.size === 0 && interval !== undefined) {
      clearInterval(interval);
      interval = undefined;
    }
  });
};

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
  });
  pool.on('error', onError);
  if (clientTimeoutMs !== undefined && clientTimeoutMs > 0) {
    watchQueries(pool, clientTimeoutMs);
  }
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
