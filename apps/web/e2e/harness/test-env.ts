import { DEFAULT_CHROMIUM_PATH } from '@pets/testing';

/**
 * The only place the browser tests read the environment. Both have defaults that fit this
 * project's machines and CI.
 */
export const testEnv = {
  /** A PostgreSQL server where the run may create (and drop) its own database. */
  databaseUrl: process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
  /** Debian's Chromium (Playwright's own browser download does not work here). */
  chromiumPath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH,
  isCi: Boolean(process.env.CI),
};

/** The environment of this process, for the processes the harness starts. */
export const inheritedEnv = (): NodeJS.ProcessEnv => ({ ...process.env });
