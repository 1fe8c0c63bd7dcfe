/**
 * The parts of the API's production build the benchmark reuses, so that it never re-implements
 * them: where the entry point is, the migrations, the key format, and how to reach an embedded
 * database that the running API owns. (The API's build emits no type declarations: the types of
 * what is used are written out here.)
 */

export type TApiDatabase = {
  url: string;
  isEmbedded: boolean;
  label: string;
  close: () => Promise<void>;
};

type TApiDist = {
  migrate: (url: string) => Promise<{ applied: string[] }>;
  generateApiKey: (environment: 'production' | 'staging') => {
    key: string;
    hash: string;
    start: string;
  };
  openDatabase: (
    config: { DATABASE_URL: string | undefined; dataDir: string },
    options: { role: 'server' | 'tool' },
  ) => Promise<TApiDatabase>;
};

/** node apps/api/dist/main.js: what `pnpm start` runs in production. */
export const API_ENTRY = require.resolve('@pets/api/dist/main.js');

export const apiDist = (): TApiDist => ({
  migrate: require('@pets/api/dist/database/migrate.js').migrate,
  generateApiKey: require('@pets/api/dist/api-keys/api-key-format.js').generateApiKey,
  openDatabase: require('@pets/api/dist/database/database.js').openDatabase,
});
