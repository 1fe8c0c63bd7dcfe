import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  createPool,
  createPrismaClient,
  EmbeddedDatabaseError,
  MigrationError,
  openDatabase,
  type TDatabase,
  type TPrismaClient,
} from '@pets/db';
import { ApiKeyInputError } from '@pets/store/api-keys.repository';
import type { Pool } from 'pg';
import { ConfigError, loadConfig, type TConfig } from '../config';

/** Where a command writes: data to `out`, everything meant for people to `err`. */
export type TCliIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Standard input read to its end, for secrets that must not be in argv (`--password-stdin`). */
  readStdin?: () => Promise<string>;
  /** Whether standard input is a terminal (then nothing is read from it unless asked). */
  isStdinTty?: boolean;
};

/** Bad usage: reported in one line with exit code 2. */
export class UsageError extends Error {}

const EXPECTED_ERRORS = [
  UsageError,
  ApiKeyInputError,
  ConfigError,
  EmbeddedDatabaseError,
  MigrationError,
] as const;

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** One line for any failure: our own messages as they are, anything else summarised. */
export const describeError = (error: unknown): string => {
  if (EXPECTED_ERRORS.some((type) => error instanceof type)) {
    return (error as Error).message;
  }
  const withCode = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = withCode.code ?? withCode.errors?.[0]?.code;
  if (code && CONNECTION_CODES.has(code)) {
    return `cannot reach the database (${code})`;
  }
  if (code === 'P2021' || code === '42P01') {
    return 'the database has no tables yet: run `pnpm db:migrate` first';
  }
  const lines = String(withCode.message ?? error)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // Prisma puts the cause on the last line of its messages.
  return lines.at(-1) ?? 'unexpected error';
};

/** parseArgs with errors turned into one-line UsageErrors. */
export const parseCommandArgs = <T extends ParseArgsConfig>(config: T) => {
  try {
    return parseArgs({ ...config, strict: true });
  } catch (error) {
    const message = (error as Error).message.split('. ')[0] ?? 'invalid arguments';
    throw new UsageError(message.replace(/^Unknown option/, 'unknown option'));
  }
};

export const loadCliConfig = (env: NodeJS.ProcessEnv): TConfig => loadConfig(env);

/**
 * Opens the configured database as a short-lived tool (see @pets/db's embedded.ts), runs `work`
 * with a small pool (and a Prisma client on it) and releases everything, whatever happens. The
 * configuration is read from `io.env` unless the command has read it already.
 */
export const withDatabase = async <T>(
  io: TCliIo,
  work: (context: {
    config: TConfig;
    database: TDatabase;
    prisma: TPrismaClient;
    pool: Pool;
  }) => Promise<T>,
  config: TConfig = loadCliConfig(io.env),
): Promise<T> => {
  const database = await openDatabase(config, { role: 'tool', onInfo: io.err });
  // Every time, so a forgotten DATA_DIR or DATABASE_URL shows at once (standard error: the
  // output stays the command's answer).
  io.err(`Database: ${database.label}.`);
  try {
    // One small pool for both: the embedded database serves few connections.
    const pool = createPool(database.url, 2);
    const prisma = createPrismaClient(pool);
    try {
      return await work({ config, database, prisma, pool });
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  } finally {
    await database.close();
  }
};
