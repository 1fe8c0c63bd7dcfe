import { markMigrationRolledBack, migrate, seedDatabase } from '@pets/db';
import {
  readDatabaseEnvironment,
  recordDatabaseEnvironment,
  setDatabaseEnvironment,
} from '../core/database-environment';
import { parseCommandArgs, type TCliIo, UsageError, withDatabase } from './cli-support';

export const DB_USAGE = `Database commands.

  pnpm db:migrate                        apply the migrations in prisma/migrations
  pnpm db:migrate --rolled-back <name>   mark a failed migration as rolled back
  pnpm db:seed                           add the demo categories and animals (idempotent)
  pnpm db:environment                    the environment the database belongs to
  pnpm db:environment --set <env>        change it (production or staging), on purpose

The first migration records APP_ENV as the database's environment; an API whose APP_ENV differs
refuses to start.

Uses DATABASE_URL, or the embedded database in DATA_DIR (whether or not the API is running).`;

export const runMigrateCommand = async (args: string[], io: TCliIo): Promise<number> => {
  const { values } = parseCommandArgs({
    args,
    options: { 'rolled-back': { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(DB_USAGE);
    return 0;
  }
  const rolledBack = values['rolled-back'];
  await withDatabase(io, async ({ config, database, pool }) => {
    if (rolledBack !== undefined) {
      await markMigrationRolledBack(database.url, rolledBack);
      io.out(`Marked ${rolledBack} as rolled back; the next \`pnpm db:migrate\` applies it again.`);
      return;
    }
    const { applied } = await migrate(database.url);
    const all = [...database.appliedMigrations, ...applied];
    const environment = await recordDatabaseEnvironment(pool, config.APP_ENV);
    io.err(`Database environment: ${environment}.`);
    io.out(
      all.length === 0
        ? `${database.label}: already up to date.`
        : `${database.label}: applied ${all.join(', ')}.`,
    );
  });
  return 0;
};

export const runSeedCommand = async (args: string[], io: TCliIo): Promise<number> => {
  const { values } = parseCommandArgs({
    args,
    options: { help: { type: 'boolean' } },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(DB_USAGE);
    return 0;
  }
  const { categoriesCreated, petsCreated, profilesAdded } = await withDatabase(io, ({ prisma }) =>
    seedDatabase(prisma),
  );
  io.out(
    categoriesCreated + petsCreated + profilesAdded === 0
      ? 'Seed data already present: nothing added.'
      : `Added ${categoriesCreated} categories and ${petsCreated} animals.` +
          (profilesAdded > 0 ? ` Described ${profilesAdded} animals seeded before profiles.` : ''),
  );
  return 0;
};

const ENVIRONMENTS = ['production', 'staging'] as const;

export const runEnvironmentCommand = async (args: string[], io: TCliIo): Promise<number> => {
  const { values } = parseCommandArgs({
    args,
    options: { set: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: false,
  });
  if (values.help) {
    io.out(DB_USAGE);
    return 0;
  }
  const wanted = values.set;
  const target = ENVIRONMENTS.find((each) => each === wanted);
  if (wanted !== undefined && target === undefined) {
    throw new UsageError(`--set takes production or staging, not "${wanted}"`);
  }
  await withDatabase(io, async ({ pool }) => {
    if (target === undefined) {
      const recorded = await readDatabaseEnvironment(pool);
      io.out(recorded ?? 'none recorded (the next migration or start records APP_ENV)');
      return;
    }
    const previous = await setDatabaseEnvironment(pool, target);
    io.out(
      previous === undefined || previous === target
        ? `The database belongs to ${target}.`
        : `The database belonged to ${previous}; it now belongs to ${target}.`,
    );
  });
  return 0;
};
