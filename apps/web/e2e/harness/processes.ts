import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { LOGS_DIR } from './paths';

/**
 * Child processes of the test run (the API, the sites). Each runs in its own process group with
 * its output in artifacts/logs/<name>.log, and is killed when the run ends, however it ends.
 */
export type TProcess = {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<string>;
  hasExited: () => boolean;
};

const running = new Set<TProcess>();

const killGroup = (process_: TProcess, signal: NodeJS.Signals) => {
  const pid = process_.child.pid;
  if (pid === undefined || process_.hasExited()) {
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
};

// Last resort when the runner exits without its teardown (an exception, Ctrl-C twice).
process.on('exit', () => {
  for (const process_ of running) {
    killGroup(process_, 'SIGKILL');
  }
});

export const startProcess = (
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): TProcess => {
  mkdirSync(LOGS_DIR, { recursive: true });
  const logFile = join(LOGS_DIR, `${name}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  closeSync(log);
  let ended = false;
  const exited = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => {
      ended = true;
      resolve(signal ?? `exit code ${code}`);
    });
    child.on('error', (error) => {
      ended = true;
      resolve(`failed to start: ${error.message}`);
    });
  });
  const process_: TProcess = { name, child, logFile, exited, hasExited: () => ended };
  running.add(process_);
  void exited.then(() => running.delete(process_));
  return process_;
};

/** SIGTERM to the whole group, SIGKILL after a grace period. */
export const stopProcess = async (process_: TProcess, graceMs = 5_000): Promise<void> => {
  if (process_.hasExited()) {
    return;
  }
  killGroup(process_, 'SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => {
    setTimeout(() => resolve('timeout'), graceMs).unref();
  });
  if ((await Promise.race([process_.exited, timeout])) === 'timeout') {
    killGroup(process_, 'SIGKILL');
    await process_.exited;
  }
};

export const logTail = (process_: TProcess, lines = 30): string => {
  try {
    return readFileSync(process_.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
};

/** A TCP port that was free a moment ago on 127.0.0.1. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') {
          resolve(address.port);
        } else {
          reject(new Error('Could not find a free port.'));
        }
      });
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `url` until it answers with a status `isReady` accepts. Fails at once, with the end of the
 * process's log, if the process exits first; fails after `timeoutMs` otherwise.
 */
export const waitForHttp = async (
  process_: TProcess,
  url: string,
  isReady: (status: number) => boolean,
  timeoutMs: number,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (process_.hasExited()) {
      throw new Error(
        `${process_.name} exited (${await process_.exited}) before ${url} was ready. ` +
          `Its last output (${process_.logFile}):\n${logTail(process_)}`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (isReady(response.status)) {
        return;
      }
      last = `HTTP ${response.status}`;
    } catch (error) {
      last =
        error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
    }
    await sleep(250);
  }
  throw new Error(
    `${process_.name} was not ready at ${url} within ${timeoutMs / 1000} s (last: ${last}). ` +
      `Its last output (${process_.logFile}):\n${logTail(process_)}`,
  );
};
