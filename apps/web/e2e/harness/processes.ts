import { join } from 'node:path';
import { startProcess as start, type TManagedProcess } from '@pets/testing';
import { LOGS_DIR } from './paths';

export { freePort } from '@pets/testing';

/**
 * Child processes of the test run (the API, the sites), supervised by @pets/testing: each runs in
 * its own process group with its output in artifacts/logs/<name>.log (the tests read some of
 * them), and is killed when the run ends, however it ends.
 */
export type TProcess = TManagedProcess & { logFile: string };

export const startProcess = (
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): TProcess => {
  const logFile = join(LOGS_DIR, `${name}.log`);
  // The log file has the whole output; memory keeps only the tail that error messages quote.
  const process_ = start({ name, command, args, ...options, logFile, keepOutput: false });
  return Object.assign(process_, { logFile });
};

/** SIGTERM to the whole group, SIGKILL after a grace period. */
export const stopProcess = async (process_: TProcess, graceMs = 5_000): Promise<void> => {
  await process_.stop(graceMs);
};

/**
 * Polls `url` until it answers with a status `isReady` accepts. Fails at once, with the end of the
 * process's output, if the process exits first; fails after `timeoutMs` otherwise.
 */
export const waitForHttp = (
  process_: TProcess,
  url: string,
  isReady: (status: number) => boolean,
  timeoutMs: number,
): Promise<void> =>
  process_.waitForHttp(url, { isReady, timeoutMs }).catch((error: Error) => {
    throw new Error(`${error.message}\n(the whole output: ${process_.logFile})`);
  });
