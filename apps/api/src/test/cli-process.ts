import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { runProcess, startProcess, type TProcessOptions } from '@pets/testing';

/** apps/api */
export const APP_ROOT = join(__dirname, '..', '..');
const CLI_ENTRY = join(APP_ROOT, 'src', 'cli', 'index.ts');
const OWNER_FIXTURE = join(__dirname, 'embedded-owner.cjs');

export type TCliResult = { code: number | null; stdout: string; stderr: string };

/** The environment of a child: ours without any database settings, plus `env`. */
export const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = process.env;
  return { ...rest, ...env };
};

/** Runs a child to its end; a command that cannot start at all fails, as spawn's 'error' did. */
const collect = async (options: TProcessOptions): Promise<TCliResult> => {
  const { code, signal, description, stdout, stderr } = await runProcess(options);
  if (code === null && signal === null) {
    throw new Error(`${options.name}: ${description}`);
  }
  return { code, stdout, stderr };
};

/**
 * Runs a data command as `pnpm keys ...` / `pnpm db:migrate` do (src/cli/index.ts under tsx),
 * as a child process.
 */
export const runCliProcess = (
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<TCliResult> =>
  collect({
    name: 'cli',
    command: process.execPath,
    args: ['--import', 'tsx', CLI_ENTRY, ...args],
    cwd: APP_ROOT,
    env: childEnv(env),
    ...(input === undefined ? {} : { input }),
  });

/** Runs a command through the root package.json script, with pnpm. */
export const runPnpmScript = (
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<TCliResult> =>
  collect({
    name: `pnpm ${script}`,
    command: 'pnpm',
    args: ['--silent', script, ...args],
    cwd: join(APP_ROOT, '..', '..'),
    env: childEnv(env),
  });

export type TOwnerProcess = {
  child: ChildProcess;
  /** Resolves with 'ready' once the database is open, or with the process's failure. */
  started: Promise<{ isReady: boolean; stderr: string; code: number | null }>;
  exited: Promise<TCliResult>;
  stderr: () => string;
};

/**
 * A process that opens the embedded database of DATA_DIR with the real, compiled openDatabase()
 * (dist/, as built by the CLI launcher) in the given role, like the API does on start, and keeps
 * it until SIGTERM (graceful close) or, with `holdMs`, for that long.
 */
export const startOwnerProcess = (
  role: 'server' | 'tool',
  env: Record<string, string>,
  holdMs = 0,
): TOwnerProcess => {
  const owner = startProcess({
    name: `embedded-owner (${role})`,
    command: process.execPath,
    args: [OWNER_FIXTURE, role, String(holdMs)],
    cwd: APP_ROOT,
    env: childEnv(env),
  });
  const exited = owner.exited.then(({ code, stdout, stderr }) => ({ code, stdout, stderr }));
  // Its stdout says only "ready"; stderr may say "already served", which must not count.
  const started = owner.waitForLine('ready', { stream: 'stdout' }).then(
    () => ({ isReady: true, stderr: owner.stderr(), code: null }),
    async () => ({ isReady: false, stderr: owner.stderr(), code: (await exited).code }),
  );
  return { child: owner.child, started, exited, stderr: owner.stderr };
};
