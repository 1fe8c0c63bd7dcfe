import { type ApiKeyEnvironment, prepare, sql, type TQueryable } from '@pets/db';

/**
 * The environment a database belongs to, recorded once (`database_environment`, one
 * row) from the APP_ENV of the first migration run, and checked at every start: a staging API
 * pointed at the production database would serve production orders, adopters' personal data
 * included, to staging keys.
 *
 * On the `pg` pool, as every query of the serving process: the API never loads Prisma's query
 * engine (docs/decisions.md, "Prisma at run time").
 */
export class EnvironmentMismatchError extends Error {}

const RECORD_STATEMENT = prepare((db, params: { environment: ApiKeyEnvironment }) =>
  db
    .insertInto('database_environment')
    .values({ id: true, environment: params.environment })
    .onConflict((conflict) => conflict.column('id').doNothing()),
);

const READ_STATEMENT = prepare((db) =>
  db.selectFrom('database_environment').select('environment').where('id', '=', true),
);

const SET_STATEMENT = prepare((db, params: { environment: ApiKeyEnvironment }) =>
  db
    .insertInto('database_environment')
    .values({ id: true, environment: params.environment })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({
        environment: params.environment,
        recorded_at: sql<Date>`now()`,
      }),
    ),
);

/** The environment recorded for this database, if any. */
export const readDatabaseEnvironment = async (
  db: TQueryable,
): Promise<ApiKeyEnvironment | undefined> => {
  const { rows } = await READ_STATEMENT.execute(db, {});
  return rows[0]?.environment;
};

/** Records `environment` when the database has none yet; answers the one it has. */
export const recordDatabaseEnvironment = async (
  db: TQueryable,
  environment: ApiKeyEnvironment,
): Promise<ApiKeyEnvironment> => {
  await RECORD_STATEMENT.execute(db, { environment });
  return (await readDatabaseEnvironment(db)) ?? environment;
};

/** Throws, in one line naming both, when the database belongs to another environment. */
export const assertDatabaseEnvironment = async (
  db: TQueryable,
  environment: ApiKeyEnvironment,
): Promise<void> => {
  const recorded = await recordDatabaseEnvironment(db, environment);
  if (recorded !== environment) {
    throw new EnvironmentMismatchError(
      `APP_ENV is ${environment}, but this database belongs to ${recorded}. Point DATABASE_URL at the ${environment} database, or, if this database really is to serve ${environment} now, run: pnpm db:environment --set ${environment}`,
    );
  }
};

/** The explicit change (`pnpm db:environment --set`): the previous environment, if any. */
export const setDatabaseEnvironment = async (
  db: TQueryable,
  environment: ApiKeyEnvironment,
): Promise<ApiKeyEnvironment | undefined> => {
  const previous = await readDatabaseEnvironment(db);
  await SET_STATEMENT.execute(db, { environment });
  return previous;
};
