import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { runProcess, startProcess } from '@pets/testing';
import { APP_ROOT, childEnv } from './cli-process';

/** The built API, as `pnpm start` and the container run it (test/global-setup.ts builds it). */
const ENTRY = join(APP_ROOT, 'dist', 'main.js');

export type TApiProcess = {
  child: ChildProcess;
  /** http://127.0.0.1:<port>, once it listens. */
  baseUrl: string;
  /** JSON log lines so far, parsed. */
  logs: () => Record<string, unknown>[];
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
};

export type TApiExit = { code: number | null; stdout: string; stderr: string };

const parseLine = (line: string): Record<string, unknown> | undefined => {
  if (!line.startsWith('{')) {
    return undefined;
  }
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

const parseLines = (text: string): Record<string, unknown>[] =>
  text.split('\n').flatMap((line) => {
    const parsed = parseLine(line);
    return parsed ? [parsed] : [];
  });

const apiOptions = (env: Record<string, string>) => ({
  name: 'api',
  command: process.execPath,
  args: [ENTRY],
  cwd: APP_ROOT,
  env: childEnv({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
});

/** Runs the built API to its end (for configurations that must stop it at once). */
export const runApiProcess = async (
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<TApiExit> => {
  const { code, stdout, stderr } = await runProcess({ ...apiOptions(env), timeoutMs });
  return { code, stdout, stderr };
};

/**
 * Starts the built API as a child process (DATABASE_URL and DATA_DIR only as given) on a free
 * port, and resolves once it logs that it listens.
 */
export const startApiProcess = async (
  env: Record<string, string>,
  startTimeoutMs = 60_000,
): Promise<TApiProcess> => {
  const api = startProcess(apiOptions(env));
  let listening: string;
  try {
    listening = await api.waitForLine((line) => parseLine(line)?.msg === 'API listening', {
      timeoutMs: startTimeoutMs,
    });
  } catch (error) {
    await api.stop(0);
    throw new Error(`the API did not start: ${(error as Error).message}`);
  }
  return {
    child: api.child,
    baseUrl: `http://127.0.0.1:${String(parseLine(listening)?.port)}`,
    logs: () => parseLines(api.stdout()),
    stdout: api.stdout,
    stderr: api.stderr,
    exited: api.exited.then((exit) => exit.code),
  };
};
