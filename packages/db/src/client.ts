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
 * A `pg` pool of at most `poolSize` connections. Call `end()` to close it, before its database is
 * dropped. `onError` hears the errors of idle connections (see above); by default they are ignored.
 */
export const createPool = (
  url: string,
  poolSize = 10,
  onError: (error: Error) => void = ignoreIdleConnectionError,
): Pool => {
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: 'pets-api',
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
