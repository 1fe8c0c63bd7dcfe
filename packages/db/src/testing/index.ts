import { randomBytes } from 'node:crypto';
import { Client, type Pool } from 'pg';
import { createPool, createPrismaClient, type TPrismaClient } from '../client.js';
import { redactDatabaseUrl } from '../database.js';
import { migrate } from '../migrate.js';

// Test support only ('@pets/db/testing'): creates and drops databases on a PostgreSQL server.
// No production code imports this entry.

/** The local PostgreSQL of our machines and CI (trust authentication). */
export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export type TTestDatabase = {
  /** URL of a database of its own, migrated unless asked otherwise. */
  url: string;
  name: string;
  /**
   * Drops the database (with FORCE: connections still open to it are closed). End your pools and
   * clients first: PostgreSQL terminates the connections it closes (57P01), which a pool without an
   * 'error' listener reports as an unhandled error.
   */
  drop: () => Promise<void>;
};

export type TCreateTestDatabaseOptions = {
  /** Apply prisma/migrations with migrate(). Default true. */
  migrated?: boolean;
  /** A database on the server to connect to for CREATE/DROP DATABASE. Default: TEST_DATABASE_URL,
   * else the local PostgreSQL at 127.0.0.1:5432. */
  adminUrl?: string;
  /** Start of the database's name, so that a leftover says which suite left it. */
  namePrefix?: string;
  /** The setting a person changes to point at another server, named when it cannot be reached.
   * Default TEST_DATABASE_URL. */
  adminUrlSetting?: string;
};

const withAdmin = async <T>(
  { adminUrl, adminUrlSetting }: TPlannedDatabase,
  work: (client: Client) => Promise<T>,
) => {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  // A failure of the connection shows in the query that meets it; unheard, the event would crash.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot connect to PostgreSQL at ${redactDatabaseUrl(adminUrl)} (set ${adminUrlSetting}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

type TPlannedDatabase = {
  name: string;
  url: string;
  adminUrl: string;
  adminUrlSetting: string;
  migrated: boolean;
};

const planTestDatabase = ({
  migrated = true,
  adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL,
  namePrefix = 'pets_test',
  adminUrlSetting = 'TEST_DATABASE_URL',
}: TCreateTestDatabaseOptions): TPlannedDatabase => {
  const name = `${namePrefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), adminUrl, adminUrlSetting, migrated };
};

const dropPlanned = (planned: TPlannedDatabase) =>
  withAdmin(planned, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${planned.name}" WITH (FORCE)`);
  });

const createPlanned = async (planned: TPlannedDatabase): Promise<void> => {
  await withAdmin(planned, (client) => client.query(`CREATE DATABASE "${planned.name}"`));
  if (planned.migrated) {
    try {
      await migrate(planned.url);
    } catch (error) {
      await dropPlanned(planned);
      throw error;
    }
  }
};

/**
 * Creates a uniquely named database on the admin URL's server, applies the migrations unless
 * `{ migrated: false }`, and hands back its URL and a drop() for afterAll.
 */
export const createTestDatabase = async (
  options: TCreateTestDatabaseOptions = {},
): Promise<TTestDatabase> => {
  const planned = planTestDatabase(options);
  await createPlanned(planned);
  return { url: planned.url, name: planned.name, drop: () => dropPlanned(planned) };
};

export type TTestDatabaseFixtureOptions = TCreateTestDatabaseOptions & {
  /** Connections of the pool that the test and its Prisma client share. Default 4. */
  poolSize?: number;
};

export type TTestDatabaseFixture = {
  url: string;
  name: string;
  /** A pool on the database (it connects on first use); idle-connection errors are heard. */
  pool: Pool;
  /** Prisma on that same pool. */
  prisma: TPrismaClient;
  /** Creates the database and applies the migrations (unless `migrated: false`): for beforeAll. */
  create: () => Promise<void>;
  /** Disconnects Prisma, ends the pool, then drops the database: for afterAll. */
  drop: () => Promise<void>;
};

/**
 * The fixture of the repository and schema tests: a test database's name, URL, pool and Prisma
 * client, known at once (nothing connects before the first query), with create() and drop() for
 * the suite's hooks:
 *
 *     const { prisma, create, drop } = testDatabase();
 *     beforeAll(create);
 *     afterAll(drop);
 */
export const testDatabase = ({
  poolSize = 4,
  ...options
}: TTestDatabaseFixtureOptions = {}): TTestDatabaseFixture => {
  const planned = planTestDatabase(options);
  const pool = createPool(planned.url, poolSize);
  const prisma = createPrismaClient(pool);
  return {
    url: planned.url,
    name: planned.name,
    pool,
    prisma,
    create: () => createPlanned(planned),
    drop: async () => {
      await prisma.$disconnect();
      await pool.end();
      await dropPlanned(planned);
    },
  };
};

/**
 * Test databases opened on demand (a fresh one per test) and dropped together: call dropAll() in
 * afterAll.
 */
export const testDatabases = () => {
  const opened: TTestDatabaseFixture[] = [];
  return {
    open: async (options?: TTestDatabaseFixtureOptions) => {
      const database = testDatabase(options);
      opened.push(database);
      await database.create();
      return database;
    },
    dropAll: async () => {
      await Promise.all(opened.map((database) => database.drop()));
    },
  };
};

/** One statement on a connection of its own, closed afterwards: reads a database past the code under test. */
export const queryOnce = async <T extends object>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
};
