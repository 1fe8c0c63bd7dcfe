import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** apps/api */
export const APP_ROOT = join(__dirname, '..', '..');
const LAUNCHER = join(APP_ROOT, 'scripts', 'cli.cjs');
const OWNER_FIXTURE = join(__dirname, 'embedded-owner.cjs');

export type TCliResult = { code: number | null; stdout: string; stderr: string };

/** The environment of a child: ours without any database settings, plus `env`. */
export const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = process.env;
  return { ...rest, ...env };
};

const collect = (child: ChildProcess): Promise<TCliResult> =>
  new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/**
 * Runs a data command exactly as `pnpm keys ...` / `pnpm db:migrate` do (through
 * scripts/cli.cjs, which compiles dist/cli when the sources changed), as a child process.
 */
export const runCliProcess = (args: string[], env: Record<string, string>): Promise<TCliResult> =>
  collect(spawn(process.execPath, [LAUNCHER, ...args], { cwd: APP_ROOT, env: childEnv(env) }));

/** Runs a command through the root package.json script, with pnpm. */
export const runPnpmScript = (
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<TCliResult> =>
  collect(
    spawn('pnpm', ['--silent', script, ...args], {
      cwd: join(APP_ROOT, '..', '..'),
      env: childEnv(env),
    }),
  );

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
  const child = spawn(process.execPath, [OWNER_FIXTURE, role, String(holdMs)], {
    cwd: APP_ROOT,
    env: childEnv(env),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = collect(child);
  const started = new Promise<{ isReady: boolean; stderr: string; code: number | null }>(
    (resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) {
          resolve({ isReady: true, stderr, code: null });
        }
      });
      exited.then((result) => resolve({ isReady: false, stderr, code: result.code }));
    },
  );
  return { child, started, exited, stderr: () => stderr };
};
