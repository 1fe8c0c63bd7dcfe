// @pets/db: everything that touches the database, for the API, its command line and the bench.
// Test helpers are in '@pets/db/testing', never imported by production code.

// Kysely's raw-SQL template, for the few expressions the builder has no method for (jsonb).
export { type SelectQueryBuilder, sql } from 'kysely';
export {
  createPool,
  createPrismaClient,
  QUERY_READ_TIMEOUT,
  QUERY_TIMEOUT_MARGIN_MS,
  type TPoolTimeouts,
  type TPrismaClient,
} from './client.js';
export {
  openDatabase,
  redactDatabaseUrl,
  type TDatabase,
  type TDatabaseConfig,
  type TDatabaseRole,
  type TOpenDatabaseOptions,
} from './database.js';
export { EmbeddedDatabaseError, embeddedPaths } from './embedded.js';
export * from './generated/prisma/client.js';
export {
  createKysely,
  type DB,
  prepare,
  prepareShapes,
  type TPreparedQuery,
  type TQueryable,
  type TRowOf,
  type TShapedQuery,
} from './kysely.js';
export {
  MIGRATIONS_DIR,
  MigrationError,
  markMigrationRolledBack,
  migrate,
  type TMigrateOptions,
  type TMigrateResult,
} from './migrate.js';
export { SEED_CATALOGUE, seedDatabase, type TSeedResult } from './seed.js';
