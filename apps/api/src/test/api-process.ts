import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
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

const parseLines = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

const spawnApi = (env: Record<string, string>) => {
  const child = spawn(process.execPath, [ENTRY], {
    cwd: APP_ROOT,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
};

/** Runs the built API to its end (for configurations that must stop it at once). */
export const runApiProcess = async (
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<TApiExit> => {
  const api = spawnApi(env);
  const timer = setTimeout(() => api.child.kill('SIGKILL'), timeoutMs);
  const code = await api.exited;
  clearTimeout(timer);
  return { code, stdout: api.stdout(), stderr: api.stderr() };
};

/**
 * Starts the built API as a child process (DATABASE_URL and DATA_DIR only as given) on a free
 * port, and resolves once it logs that it listens.
 */
export const startApiProcess = async (
  env: Record<string, string>,
  startTimeoutMs = 60_000,
): Promise<TApiProcess> => {
  const api = spawnApi(env);
  const logs = () => parseLines(api.stdout());
  const started = Date.now();
  for (;;) {
    const listening = logs().find((line) => line.msg === 'API listening');
    if (listening) {
      return { ...api, logs, baseUrl: `http://127.0.0.1:${String(listening.port)}` };
    }
    if (api.child.exitCode !== null || Date.now() - started > startTimeoutMs) {
      api.child.kill('SIGKILL');
      throw new Error(`the API did not start:\n${api.stderr()}\n${api.stdout()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
