import type { ApiKeyEnvironment, PrismaClient } from '@pets/db';

/**
 * The environment a database belongs to, recorded once (`database_environment`, one
 * row) from the APP_ENV of the first migration run, and checked at every start: a staging API
 * pointed at the production database would serve production orders, adopters' personal data
 * included, to staging keys.
 */
export class EnvironmentMismatchError extends Error {}

/** Records `environment` when the database has none yet; answers the one it has. */
export const recordDatabaseEnvironment = async (
  prisma: PrismaClient,
  environment: ApiKeyEnvironment,
): Promise<ApiKeyEnvironment> => {
  const row = await prisma.databaseEnvironment.upsert({
    where: { id: true },
    create: { id: true, environment },
    update: {},
  });
  return row.environment;
};

/** Throws, in one line naming both, when the database belongs to another environment. */
export const assertDatabaseEnvironment = async (
  prisma: PrismaClient,
  environment: ApiKeyEnvironment,
): Promise<void> => {
  const recorded = await recordDatabaseEnvironment(prisma, environment);
  if (recorded !== environment) {
    throw new EnvironmentMismatchError(
      `APP_ENV is ${environment}, but this database belongs to ${recorded}. Point DATABASE_URL at the ${environment} database, or, if this database really is to serve ${environment} now, run: pnpm db:environment --set ${environment}`,
    );
  }
};

/** The explicit change (`pnpm db:environment --set`): the previous environment, if any. */
export const setDatabaseEnvironment = async (
  prisma: PrismaClient,
  environment: ApiKeyEnvironment,
): Promise<ApiKeyEnvironment | undefined> => {
  const previous = await prisma.databaseEnvironment.findUnique({ where: { id: true } });
  await prisma.databaseEnvironment.upsert({
    where: { id: true },
    create: { id: true, environment },
    update: { environment, recordedAt: new Date() },
  });
  return previous?.environment;
};
