import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, keeping the books exactly as
 * Prisma Migrate keeps them in `_prisma_migrations`, so `prisma migrate deploy` (where Prisma's
 * schema engine exists) and this function can take turns on the same database.
 *
 * Like `prisma migrate deploy`: the same advisory lock (72707369), the same table, one row per
 * applied migration (uuid id, sha256 checksum of the file, started_at/finished_at, logs on
 * failure, applied_steps_count 1 when done), a failed migration blocks every later run until it is
 * marked rolled back. Unlike it: each migration runs in a transaction together with its row, so a
 * crash never leaves half a migration behind, and a migration file changed after it was applied
 * is refused instead of ignored.
 */

/**
 * The repository's prisma/migrations, where they are written (read in place from src/ and dist/
 * alike, so a new migration needs no rebuild); where the repository is not (a production image of
 * `pnpm deploy`), the copy the build put beside this file, in dist/migrations
 * (scripts/copy-migrations.cjs).
 */
const REPO_MIGRATIONS_DIR = join(__dirname, '..', '..', '..', 'prisma', 'migrations');
export const MIGRATIONS_DIR = existsSync(REPO_MIGRATIONS_DIR)
  ? REPO_MIGRATIONS_DIR
  : join(__dirname, 'migrations');

/** Prisma Migrate's advisory lock key ("a unique number we chose to identify Migrate"). */
export const PRISMA_MIGRATE_LOCK_KEY = 72_707_369;

/** The table exactly as Prisma's schema engine creates it on PostgreSQL. */
export const PRISMA_MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

/** A refusal or failure whose message is one line meant for the person running the command. */
export class MigrationError extends Error {}

export type TMigrationFile = { name: string; script: string; checksum: string };

export type TMigrateOptions = {
  migrationsDir?: string;
  /** How long to wait for another run (ours or Prisma's) to finish. Default 60 s. */
  lockTimeoutMs?: number;
};

export type TMigrateResult = { applied: string[] };

type TMigrationRow = {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
};

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const migrationChecksum = (script: string): string => sha256(script);

/** Prisma accepts the checksum of the file as it is, or with its line endings converted, since
 * git may have checked the file out with the other convention. */
const matchesChecksum = (script: string, checksum: string): boolean =>
  [script, script.replaceAll('\r\n', '\n'), script.replaceAll('\n', '\r\n')].some(
    (variant) => sha256(variant) === checksum,
  );

export const readMigrations = async (
  migrationsDir: string = MIGRATIONS_DIR,
): Promise<TMigrationFile[]> => {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => {
    throw new MigrationError(`No migrations directory at ${migrationsDir}.`);
  });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const script = await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8').catch(
        () => {
          throw new MigrationError(`Migration ${name} has no migration.sql.`);
        },
      );
      return { name, script, checksum: migrationChecksum(script) };
    }),
  );
};

const firstLine = (text: string): string => text.trim().split('\n')[0] ?? '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const acquireLock = async (client: Client, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [PRISMA_MIGRATE_LOCK_KEY],
    );
    if (rows[0]?.locked) {
      return;
    }
    if (Date.now() >= deadline) {
      throw new MigrationError(
        `Another migration run holds the migration lock (advisory lock ${PRISMA_MIGRATE_LOCK_KEY}); gave up after ${Math.round(timeoutMs / 1000)} s.`,
      );
    }
    await sleep(200);
  }
};

/** Creates `_prisma_migrations` the way `prisma migrate deploy` does: only in an empty schema. */
const ensureMigrationsTable = async (client: Client): Promise<void> => {
  const { rows } = await client.query<{ exists: boolean; objects: number }>(
    `SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists,
            (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm')) AS objects`,
  );
  const state = rows[0];
  if (state?.exists) {
    return;
  }
  if ((state?.objects ?? 0) > 0) {
    throw new MigrationError(
      'The database schema is not empty and has no _prisma_migrations table: point DATABASE_URL at an empty database (or baseline this one with `prisma migrate resolve --applied`).',
    );
  }
  await client.query(PRISMA_MIGRATIONS_TABLE_DDL);
};

const listRows = async (client: Client): Promise<TMigrationRow[]> => {
  const { rows } = await client.query<TMigrationRow>(
    `SELECT id, checksum, migration_name, started_at, finished_at, rolled_back_at, logs
       FROM _prisma_migrations ORDER BY started_at`,
  );
  return rows;
};

/** Refuses to go on from a history that Prisma would refuse, or that no longer matches the files. */
const checkHistory = (rows: TMigrationRow[], files: TMigrationFile[]): void => {
  const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed) {
    const logs = failed.logs ? `: ${firstLine(failed.logs)}` : '';
    throw new MigrationError(
      `Migration ${failed.migration_name} failed at ${failed.started_at.toISOString()}${logs}. Fix the database or the file, then run \`pnpm db:migrate --rolled-back ${failed.migration_name}\` (or \`prisma migrate resolve --rolled-back\`).`,
    );
  }
  const scripts = new Map(files.map((file) => [file.name, file.script]));
  for (const row of rows) {
    const script = scripts.get(row.migration_name);
    if (row.rolled_back_at !== null || script === undefined) {
      continue;
    }
    if (!matchesChecksum(script, row.checksum)) {
      throw new MigrationError(
        `Migration ${row.migration_name} was changed after it was applied (its checksum differs): restore the file and put the change in a new migration.`,
      );
    }
  }
};

const isApplied = (rows: TMigrationRow[], name: string): boolean =>
  rows.some((row) => row.migration_name === name && row.rolled_back_at === null);

/** Applies one migration and its row in one transaction; a failure is recorded as Prisma does. */
const applyMigration = async (client: Client, file: TMigrationFile): Promise<boolean> => {
  const id = randomUUID();
  const startedAt = new Date();
  await client.query('BEGIN');
  try {
    // The advisory lock already serialises runs on a real server. On the embedded database every
    // connection shares one session, so the lock cannot; its transactions are serialised, so
    // this check inside the transaction is what makes a concurrent run skip the migration there.
    const done = await client.query(
      'SELECT 1 FROM _prisma_migrations WHERE migration_name = $1 AND rolled_back_at IS NULL',
      [file.name],
    );
    if ((done.rowCount ?? 0) > 0) {
      await client.query('ROLLBACK');
      return false;
    }
    await client.query(file.script);
    await client.query(
      `INSERT INTO _prisma_migrations
         (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, $3, $4, NULL, NULL, $5, 1)`,
      [id, file.checksum, new Date(), file.name, startedAt],
    );
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    await client
      .query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, started_at, applied_steps_count)
         VALUES ($1, $2, $3, $4, $5, 0)`,
        [id, file.checksum, file.name, message, startedAt],
      )
      .catch(() => undefined);
    throw new MigrationError(
      `Migration ${file.name} failed and was rolled back: ${firstLine(message)}. Fix it, then run \`pnpm db:migrate --rolled-back ${file.name}\`.`,
    );
  }
};

const withClient = async <T>(url: string, work: (client: Client) => Promise<T>): Promise<T> => {
  const client = new Client({ connectionString: url, application_name: 'pets-migrate' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
};

const withLock = async <T>(
  client: Client,
  timeoutMs: number,
  work: () => Promise<T>,
): Promise<T> => {
  await acquireLock(client, timeoutMs);
  try {
    return await work();
  } finally {
    await client
      .query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY])
      .catch(() => undefined);
  }
};

/**
 * Brings the database at `url` up to date. Safe to run any number of times, and from several
 * processes at once: the second waits for the first and then finds nothing to do.
 */
export const migrate = async (
  url: string,
  { migrationsDir = MIGRATIONS_DIR, lockTimeoutMs = 60_000 }: TMigrateOptions = {},
): Promise<TMigrateResult> => {
  const files = await readMigrations(migrationsDir);
  return withClient(url, (client) =>
    withLock(client, lockTimeoutMs, async () => {
      await ensureMigrationsTable(client);
      const rows = await listRows(client);
      checkHistory(rows, files);
      const applied: string[] = [];
      for (const file of files) {
        if (!isApplied(rows, file.name) && (await applyMigration(client, file))) {
          applied.push(file.name);
        }
      }
      return { applied };
    }),
  );
};

/**
 * Marks a failed migration as rolled back (what `prisma migrate resolve --rolled-back` does), so
 * the next run applies it again.
 */
export const markMigrationRolledBack = async (
  url: string,
  name: string,
  { lockTimeoutMs = 60_000 }: Pick<TMigrateOptions, 'lockTimeoutMs'> = {},
): Promise<void> =>
  withClient(url, (client) =>
    withLock(client, lockTimeoutMs, async () => {
      const exists = await client.query(
        `SELECT to_regclass('_prisma_migrations') IS NOT NULL AS e`,
      );
      const result = exists.rows[0]?.e
        ? await client.query(
            `UPDATE _prisma_migrations SET rolled_back_at = now()
              WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
            [name],
          )
        : { rowCount: 0 };
      if ((result.rowCount ?? 0) === 0) {
        throw new MigrationError(`Migration ${name} has no failed run to mark as rolled back.`);
      }
    }),
  );
