import { createHash, randomBytes } from 'node:crypto';
import { Client, type Pool } from 'pg';
import { createPool, createPrismaClient, type TPrismaClient } from '../client.js';
import { redactDatabaseUrl } from '../database.js';
import { migrate, readMigrations } from '../migrate.js';

// Test support only ('@pets/db/testing'): creates and drops databases on a PostgreSQL server.
// No production code imports this entry.

/** The local PostgreSQL of our machines and CI (trust authentication). */
export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export type TTestDatabase = {
  /** URL of a database of its own, migrated unless asked otherwise (a copy of the template below). */
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
  /** Start from prisma/migrations applied (a copy of a template that migrate() built). Default true. */
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

const urlOf = (adminUrl: string, name: string): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const planTestDatabase = ({
  migrated = true,
  adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL,
  namePrefix = 'pets_test',
  adminUrlSetting = 'TEST_DATABASE_URL',
}: TCreateTestDatabaseOptions): TPlannedDatabase => {
  const name = `${namePrefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  return { name, url: urlOf(adminUrl, name), adminUrl, adminUrlSetting, migrated };
};

const dropPlanned = (planned: TPlannedDatabase) =>
  withAdmin(planned, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${planned.name}" WITH (FORCE)`);
  });

/**
 * Migrated test databases are copies of a template: `CREATE DATABASE x TEMPLATE t` takes a fraction
 * of a second, where applying every migration to each test file's database took about one. The
 * template is built by migrate() itself, so a copy holds exactly what migrating would leave,
 * `_prisma_migrations` included. It is named by a hash of the migrations (names and checksums):
 * a changed or added migration gives a new name, and the one of other migrations is dropped when
 * the new one is built. It stays on the server between runs (one database, no connections allowed)
 * and is rebuilt only when the migrations change.
 */
const TEMPLATE_PREFIX = 'pets_template_';
/** Advisory lock held while a template is checked or built, so that parallel test files, and
 * parallel suites, build it once. Any number other than Prisma Migrate's 72707369. */
const TEMPLATE_LOCK_KEY = 72_707_370;

const templateName = async (): Promise<string> => {
  const hash = createHash('sha256');
  for (const file of await readMigrations()) {
    hash.update(`${file.name}\0${file.checksum}\n`);
  }
  return `${TEMPLATE_PREFIX}${hash.digest('hex').slice(0, 16)}`;
};

const buildTemplate = async (planned: TPlannedDatabase): Promise<string> => {
  const name = await templateName();
  return withAdmin(planned, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
        [TEMPLATE_PREFIX],
      );
      if (rows.some((row) => row.datname === name)) {
        return name;
      }
      // Templates of other migrations, and a build that died half way (`..._building`). A copy
      // being made from one holds a lock that DROP waits for; a process that still wants it
      // builds it again (createPlanned).
      for (const { datname } of rows) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
      // Built under another name and renamed once complete: the template's name means "migrated".
      const building = `${name}_building`;
      await client.query(`CREATE DATABASE "${building}"`);
      await migrate(urlOf(planned.adminUrl, building));
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      // A copy cannot be made while anything is connected to the template.
      await client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
};

/** The template on each server, once per process. */
const templates = new Map<string, Promise<string>>();

const ensureTemplate = (planned: TPlannedDatabase): Promise<string> => {
  const known = templates.get(planned.adminUrl);
  if (known) {
    return known;
  }
  const built = buildTemplate(planned);
  templates.set(planned.adminUrl, built);
  built.catch(() => templates.delete(planned.adminUrl));
  return built;
};

/** PostgreSQL's invalid_catalog_name: here, the template was dropped since this process saw it. */
const isMissingDatabase = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '3D000';

const copyTemplate = async (planned: TPlannedDatabase): Promise<void> => {
  const template = await ensureTemplate(planned);
  try {
    await withAdmin(planned, (client) =>
      client.query(`CREATE DATABASE "${planned.name}" TEMPLATE "${template}"`),
    );
  } catch (error) {
    if (!isMissingDatabase(error)) {
      throw error;
    }
    templates.delete(planned.adminUrl);
    const rebuilt = await ensureTemplate(planned);
    await withAdmin(planned, (client) =>
      client.query(`CREATE DATABASE "${planned.name}" TEMPLATE "${rebuilt}"`),
    );
  }
};

const createPlanned = async (planned: TPlannedDatabase): Promise<void> => {
  if (planned.migrated) {
    await copyTemplate(planned);
    return;
  }
  await withAdmin(planned, (client) => client.query(`CREATE DATABASE "${planned.name}"`));
};

/**
 * Creates a uniquely named database on the admin URL's server, migrated (a copy of the template)
 * unless `{ migrated: false }`, and hands back its URL and a drop() for afterAll.
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
  /** Creates the database, migrated unless `migrated: false`: for beforeAll. */
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
