import { markMigrationRolledBack, migrate, seedDatabase } from '@pets/db';
import { loadCliConfig, parseCommandArgs, type TCliIo, withDatabase } from './cli-support';

export const DB_USAGE = `Database commands.

  pnpm db:migrate                        apply the migrations in prisma/migrations
  pnpm db:migrate --rolled-back <name>   mark a failed migration as rolled back
  pnpm db:seed                           add the demo categories and animals (idempotent)

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
  const config = loadCliConfig(io.env);
  const rolledBack = values['rolled-back'];
  await withDatabase(config, io, async ({ database }) => {
    if (rolledBack !== undefined) {
      await markMigrationRolledBack(database.url, rolledBack);
      io.out(`Marked ${rolledBack} as rolled back; the next \`pnpm db:migrate\` applies it again.`);
      return;
    }
    const { applied } = await migrate(database.url);
    const all = [...database.appliedMigrations, ...applied];
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
  const config = loadCliConfig(io.env);
  const { categoriesCreated, petsCreated, profilesAdded } = await withDatabase(
    config,
    io,
    ({ prisma }) => seedDatabase(prisma),
  );
  io.out(
    categoriesCreated + petsCreated + profilesAdded === 0
      ? 'Seed data already present: nothing added.'
      : `Added ${categoriesCreated} categories and ${petsCreated} animals.` +
          (profilesAdded > 0 ? ` Described ${profilesAdded} animals seeded before profiles.` : ''),
  );
  return 0;
};
