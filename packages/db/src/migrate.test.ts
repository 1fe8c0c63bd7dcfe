import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, MigrationError, markMigrationRolledBack, migrate } from './migrate';
import { queryOnce as query, testDatabases } from './testing';

/** Verbatim from Prisma's schema engine (sql-schema-connector, flavour/postgres.rs). */
const PRISMA_ENGINE_DDL = `
CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type TRow = {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const historyOf = (url: string) =>
  query<TRow>(url, 'SELECT * FROM _prisma_migrations ORDER BY started_at, migration_name');

const tablesOf = async (url: string) =>
  (
    await query<{ name: string }>(
      url,
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' ORDER BY table_name`,
    )
  ).map((row) => row.name);

const columnsOf = (url: string, schema: string) =>
  query(
    url,
    `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
       FROM information_schema.columns
      WHERE table_schema = $1 AND table_name = '_prisma_migrations'
      ORDER BY ordinal_position`,
    [schema],
  );

const primaryKeyOf = (url: string, schema: string) =>
  query(
    url,
    `SELECT a.attname FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = (quote_ident($1) || '._prisma_migrations')::regclass AND i.indisprimary`,
    [schema],
  );

const errorOf = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

const databases = testDatabases();
const freshDatabase = async () => (await databases.open({ migrated: false })).url;

let migrationNames: string[];
let workDir: string;

beforeAll(async () => {
  migrationNames = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  workDir = await mkdtemp(join(tmpdir(), 'pets-migrations-'));
});

afterAll(async () => {
  await databases.dropAll();
  await rm(workDir, { recursive: true, force: true });
});

/** A private copy of prisma/migrations that a test may change. */
const copyOfMigrations = async () => {
  const dir = join(workDir, randomUUID());
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
};

describe('migrate', () => {
  it('applies every migration to an empty database, in name order', async () => {
    const url = await freshDatabase();
    const { applied } = await migrate(url);
    expect(applied).toEqual(migrationNames);
    expect(await tablesOf(url)).toEqual([
      '_prisma_migrations',
      'account_sessions',
      'accounts',
      'api_key_usage_hourly',
      'api_keys',
      'audit_log',
      'categories',
      'database_environment',
      'events',
      'idempotency_keys',
      'mail_messages',
      'order_notes',
      'orders',
      'organizations',
      'passkeys',
      'pet_photos',
      'pets',
      'plan_change_requests',
      'saved_searches',
      'signing_keys',
      'webauthn_challenges',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoint_leases',
      'webhook_endpoints',
    ]);
  });

  it('records each migration exactly as prisma migrate deploy does', async () => {
    const url = await freshDatabase();
    const before = new Date();
    await migrate(url);
    const rows = await historyOf(url);
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
    for (const row of rows) {
      const script = await readFile(
        join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'),
        'utf8',
      );
      expect(row.id).toMatch(UUID);
      expect(row.checksum).toBe(sha256(script));
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.started_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
      expect(row.finished_at?.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    }
  });

  it("keeps its books in a table identical to the one Prisma's schema engine creates", async () => {
    const url = await freshDatabase();
    await migrate(url);
    await query(url, 'CREATE SCHEMA prisma_reference');
    await query(url, `SET search_path TO prisma_reference; ${PRISMA_ENGINE_DDL}`);
    const ours = await columnsOf(url, 'public');
    expect(ours.length).toBe(8);
    expect(ours).toEqual(await columnsOf(url, 'prisma_reference'));
    expect(await primaryKeyOf(url, 'public')).toEqual([{ attname: 'id' }]);
    expect(await primaryKeyOf(url, 'public')).toEqual(await primaryKeyOf(url, 'prisma_reference'));
  });

  it('does nothing the second time', async () => {
    const url = await freshDatabase();
    await migrate(url);
    const rows = await historyOf(url);
    expect(await migrate(url)).toEqual({ applied: [] });
    expect(await historyOf(url)).toEqual(rows);
  });

  it('applies each migration once when two runs start together', async () => {
    const url = await freshDatabase();
    const [first, second] = await Promise.all([migrate(url), migrate(url)]);
    expect([...first.applied, ...second.applied].sort()).toEqual(migrationNames);
    expect((await historyOf(url)).length).toBe(migrationNames.length);
  });

  it('waits while Prisma Migrate holds its advisory lock (72707369), then proceeds', async () => {
    const url = await freshDatabase();
    const prisma = new Client({ connectionString: url });
    await prisma.connect();
    await prisma.query('SELECT pg_advisory_lock(72707369)');
    let isDone = false;
    const run = migrate(url).then((result) => {
      isDone = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(isDone).toBe(false);
    expect(await tablesOf(url)).toEqual([]);
    await prisma.end();
    expect((await run).applied).toEqual(migrationNames);
  });

  it('gives up with one line when the lock is never released', async () => {
    const url = await freshDatabase();
    const prisma = new Client({ connectionString: url });
    await prisma.connect();
    await prisma.query('SELECT pg_advisory_lock(72707369)');
    const error = await errorOf(migrate(url, { lockTimeoutMs: 300 }));
    await prisma.end();
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.message).toMatch(/holds the migration lock/);
    expect(error.message).not.toContain('\n');
  });

  it('continues a history written by prisma migrate deploy (any line endings)', async () => {
    const url = await freshDatabase();
    const [init] = migrationNames;
    const script = await readFile(join(MIGRATIONS_DIR, `${init}`, 'migration.sql'), 'utf8');
    // What `prisma migrate deploy` leaves behind, on a checkout with Windows line endings.
    await query(url, PRISMA_ENGINE_DDL);
    await query(url, script);
    await query(
      url,
      `INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, now(), $3)`,
      [randomUUID(), sha256(script.replaceAll('\n', '\r\n')), init],
    );
    await query(
      url,
      `UPDATE _prisma_migrations SET applied_steps_count = applied_steps_count + 1, finished_at = now()`,
    );
    expect((await migrate(url)).applied).toEqual(migrationNames.slice(1));
  });

  it('refuses, in one line, a migration changed after it was applied', async () => {
    const url = await freshDatabase();
    const dir = await copyOfMigrations();
    await migrate(url, { migrationsDir: dir });
    const [init] = migrationNames;
    const file = join(dir, `${init}`, 'migration.sql');
    await writeFile(file, `${await readFile(file, 'utf8')}\nCREATE TABLE sneaky (id int);\n`);
    const error = await errorOf(migrate(url, { migrationsDir: dir }));
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.message).toBe(
      `Migration ${init} was changed after it was applied (its checksum differs): restore the file and put the change in a new migration.`,
    );
    expect(await tablesOf(url)).not.toContain('sneaky');
  });

  it('rolls a failing migration back, records the failure and refuses to go on until it is resolved', async () => {
    const url = await freshDatabase();
    const dir = await copyOfMigrations();
    const broken = '20991231000000_broken';
    await mkdir(join(dir, broken));
    await writeFile(
      join(dir, broken, 'migration.sql'),
      'CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;\n',
    );

    const failure = await errorOf(migrate(url, { migrationsDir: dir }));
    expect(failure).toBeInstanceOf(MigrationError);
    expect(failure.message).toMatch(
      /^Migration 20991231000000_broken failed and was rolled back: .*no_such_table/,
    );
    expect(failure.message).not.toContain('\n');
    expect(await tablesOf(url)).not.toContain('half_done');
    const failedRow = (await historyOf(url)).find((row) => row.migration_name === broken);
    expect(failedRow).toMatchObject({
      finished_at: null,
      rolled_back_at: null,
      applied_steps_count: 0,
    });
    expect(failedRow?.logs).toMatch(/no_such_table/);

    // Like prisma migrate deploy (P3009): a failed migration blocks every later run.
    const blocked = await errorOf(migrate(url, { migrationsDir: dir }));
    expect(blocked.message).toMatch(
      /^Migration 20991231000000_broken failed at .*--rolled-back 20991231000000_broken/,
    );

    await writeFile(join(dir, broken, 'migration.sql'), 'CREATE TABLE half_done (id int);\n');
    await markMigrationRolledBack(url, broken);
    expect((await migrate(url, { migrationsDir: dir })).applied).toEqual([broken]);
    expect(await tablesOf(url)).toContain('half_done');
    const rows = (await historyOf(url)).filter((row) => row.migration_name === broken);
    expect(rows.map((row) => [row.rolled_back_at !== null, row.finished_at !== null])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('refuses to mark a migration that did not fail', async () => {
    const url = await freshDatabase();
    await migrate(url);
    const error = await errorOf(markMigrationRolledBack(url, `${migrationNames[0]}`));
    expect(error.message).toBe(
      `Migration ${migrationNames[0]} has no failed run to mark as rolled back.`,
    );
  });

  it('refuses a database that already has tables but no migration history', async () => {
    const url = await freshDatabase();
    await query(url, 'CREATE TABLE somebody_elses (id int)');
    const error = await errorOf(migrate(url));
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.message).toMatch(
      /^The database schema is not empty and has no _prisma_migrations table/,
    );
    expect(await tablesOf(url)).toEqual(['somebody_elses']);
  });
});

describe('the applications migration, on data from before it', () => {
  it('frees animals held only by a placed order, keeps the others, and counts the applications', async () => {
    const url = await freshDatabase();
    const before = await copyOfMigrations();
    for (const name of migrationNames.filter((each) => each >= '20261126140000')) {
      await rm(join(before, name), { recursive: true, force: true });
    }
    await migrate(url, { migrationsDir: before });
    const [key] = await query<{ id: string }>(
      url,
      `INSERT INTO api_keys (name, environment, plan, hash, start)
       VALUES ('partner', 'production', 'free', $1, 'pets_live_abcd') RETURNING id`,
      ['e'.repeat(64)],
    );
    const [category] = await query<{ id: string }>(
      url,
      "INSERT INTO categories (name) VALUES ('Dogs') RETURNING id",
    );
    const pets = await query<{ id: string; name: string }>(
      url,
      `INSERT INTO pets (name, category_id, status) VALUES
         ('placed', $1, 'pending'), ('approved', $1, 'pending'), ('aside', $1, 'pending'),
         ('free', $1, 'available')
       RETURNING id, name`,
      [category?.id],
    );
    const idOf = (name: string) => pets.find((pet) => pet.name === name)?.id;
    await query(
      url,
      `INSERT INTO orders (pet_id, api_key_id, status, adopter_name, adopter_email) VALUES
         ($1, $3, 'placed', 'A', 'a@example.org'), ($2, $3, 'approved', 'B', 'b@example.org')`,
      [idOf('placed'), idOf('approved'), key?.id],
    );

    await migrate(url);
    const after = await query<{ name: string; status: string; count: number }>(
      url,
      'SELECT name, status, applications_in_review AS count FROM pets ORDER BY id',
    );
    expect(after).toEqual([
      { name: 'placed', status: 'available', count: 1 },
      { name: 'approved', status: 'pending', count: 0 },
      { name: 'aside', status: 'pending', count: 0 },
      { name: 'free', status: 'available', count: 0 },
    ]);
  });
});
