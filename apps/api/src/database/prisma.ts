import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type TPrismaClient = PrismaClient;

/**
 * Prisma on the `pg` driver through @prisma/adapter-pg (no Rust query engine), with a pool of at
 * most `poolSize` connections. The same for a real PostgreSQL and for the embedded one.
 * Call `$disconnect()` to close the pool.
 */
export const createPrismaClient = (url: string, poolSize = 10): PrismaClient =>
  new PrismaClient({
    adapter: new PrismaPg({
      connectionString: url,
      max: poolSize,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      application_name: 'pets-api',
    }),
  });
