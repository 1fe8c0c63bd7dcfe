import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from '../generated/prisma/client';

export type TPrismaClient = PrismaClient;

/** A `pg` pool of at most `poolSize` connections. Call `end()` to close it. */
export const createPool = (url: string, poolSize = 10): Pool =>
  new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: 'pets-api',
  });

/**
 * Prisma on the `pg` driver through @prisma/adapter-pg (no Rust query engine). The same for a real
 * PostgreSQL and for the embedded one. Given a URL, it opens a pool of at most `poolSize`
 * connections of its own, which `$disconnect()` closes; given a pool, it shares it (the API sends
 * its hottest statements straight to that pool) and leaves closing it to the caller.
 */
export const createPrismaClient = (database: string | Pool, poolSize = 10): PrismaClient =>
  new PrismaClient({
    adapter:
      typeof database === 'string'
        ? new PrismaPg(createPool(database, poolSize), { disposeExternalPool: true })
        : new PrismaPg(database),
  });
