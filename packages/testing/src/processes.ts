import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
// execa (ESM-only; this CommonJS module loads it through Node's require(esm), see tsconfig.json)
// spawns, looks commands up on PATH, and settles one promise once the child has exited AND its
// output is drained, so a log line written just before exit is never missed. What it does not do
// we write below: kill a whole process group (its `kill` and `forceKillAfterDelay` reach the
// child only, and its `cleanup` skips detached children), wait for readiness, keep a tail of the
// output for error messages.
import { execa } from 'execa';
import { signalGroup, trackGroup, untrackGroup } from './cleanup';

export type TOutputStream = 'stdout' | 'stderr';

export type TProcessOptions = {
  /** For messages and log prefixes: "api", "site-limited", "redis". */
  name: string;
  /** `process.execPath` for a Node script, or any command on PATH ("pnpm", "redis-server"). */
  command: string;
  args?: readonly string[];
  cwd?: string;
  /** The child's whole environment: nothing of ours is added to it. */
  env?: NodeJS.ProcessEnv;
  /** Keep the whole output for stdout()/stderr() (tests read it); false keeps only the tail. */
  keepOutput?: boolean;
  /** How many of the last output lines error messages quote; 40 unless given. */
  tailLines?: number;
  /** Also write the output, as it comes, to this file (created, or appended to with `append`). */
  logFile?: string;
  append?: boolean;
  /** Every complete line of output, as it comes. */
  onLine?: (line: string, stream: TOutputStream) => void;
  /** Written to the child's standard input, which then ends; without it, stdin is closed. */
  input?: string;
};

export type TExit = {
  /** null when a signal ended it, or it never started. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** "exit code 1", "SIGKILL", or "failed to start: spawn nope ENOENT". */
  description: string;
  /** The whole output, or its tail when `keepOutput` is false. */
  stdout: string;
  stderr: string;
};

export type TWaitOptions = {
  timeoutMs?: number;
};

export type TLineWaitOptions = TWaitOptions & {
  /** Only lines of this stream count; both unless given. */
  stream?: TOutputStream;
};

export type THttpWaitOptions = TWaitOptions & {
  /** Which HTTP status means ready; any answer unless given. */
  isReady?: (status: number) => boolean;
  intervalMs?: number;
};

export type TManagedProcess = {
  name: string;
  /** The child itself (the leader of its own process group). */
  child: ChildProcess;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /** The last output lines of both streams, in order, for error messages. */
  tail: (lines?: number) => string;
  /** Settles (never rejects) once the child has exited and its output is read. */
  exited: Promise<TExit>;
  hasExited: () => boolean;
  /** The first line (already printed, or to come) that matches; fails if the process ends first. */
  waitForLine: (
    match: RegExp | string | ((line: string) => boolean),
    options?: TLineWaitOptions,
  ) => Promise<string>;
  /** Polls `url` until it answers as `isReady` wants; fails if the process ends first. */
  waitForHttp: (url: string, options?: THttpWaitOptions) => Promise<void>;
  /** A signal to the whole process group. */
  kill: (signal?: NodeJS.Signals) => void;
  /** SIGTERM to the group, SIGKILL after `graceMs` (5 s unless given), then sweeps the group. */
  stop: (graceMs?: number) => Promise<TExit>;
};

const DEFAULT_TAIL_LINES = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last lines of both streams, in the order they came. */
type TTail = { lines: { stream: TOutputStream; line: string }[]; max: number };

/** The output of one stream: split into lines, kept whole or as a tail. */
const createCapture = (
  stream: TOutputStream,
  options: TProcessOptions,
  tail: TTail,
  onLine: (line: string, stream: TOutputStream) => void,
) => {
  let whole = '';
  let pending = '';
  const addLine = (line: string) => {
    tail.lines.push({ stream, line });
    if (tail.lines.length > tail.max) {
      tail.lines.shift();
    }
    options.onLine?.(line, stream);
    onLine(line, stream);
  };
  return {
    write: (chunk: string) => {
      if (options.keepOutput !== false) {
        whole += chunk;
      }
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        addLine(line);
      }
    },
    end: () => {
      if (pending) {
        addLine(pending);
        pending = '';
      }
    },
    text: (): string =>
      options.keepOutput === false
        ? tail.lines
            .filter((entry) => entry.stream === stream)
            .map((entry) => entry.line)
            .join('\n')
        : whole,
  };
};

const describeExit = (code: number | null, signal: NodeJS.Signals | null, error?: string) =>
  error ? `failed to start: ${error}` : (signal ?? `exit code ${code}`);

/**
 * Starts a child process in its own process group, captures its output, and lets the caller wait
 * for it to be ready and stop it. Whatever is still running when this process exits is killed.
 */
export const startProcess = (options: TProcessOptions): TManagedProcess => {
  const tail: TTail = { lines: [], max: options.tailLines ?? DEFAULT_TAIL_LINES };
  const lineListeners = new Set<(line: string, stream: TOutputStream) => void>();
  const onLine = (line: string, stream: TOutputStream) => {
    for (const listener of lineListeners) {
      listener(line, stream);
    }
  };
  const out = createCapture('stdout', options, tail, onLine);
  const err = createCapture('stderr', options, tail, onLine);
  let log: WriteStream | undefined;
  if (options.logFile) {
    mkdirSync(dirname(options.logFile), { recursive: true });
    log = createWriteStream(options.logFile, { flags: options.append ? 'a' : 'w' });
  }

  const subprocess = execa(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: options.env ?? {},
    extendEnv: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    // Our own capture below: output is read as it comes, not only at the end.
    buffer: false,
    // Its own process group: a signal to -pid reaches everything it started.
    detached: true,
    // We stop the group ourselves (stop()); a test's own child.kill() stays a plain kill.
    forceKillAfterDelay: false,
    cleanup: false,
    reject: false,
  });
  const child = subprocess as unknown as ChildProcess;
  const pid = child.pid ?? 0;
  if (pid) {
    trackGroup(pid);
  }
  for (const [stream, capture] of [
    [child.stdout, out],
    [child.stderr, err],
  ] as const) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      capture.write(chunk);
      log?.write(chunk);
    });
    stream?.on('end', () => capture.end());
  }

  let hasEnded = false;
  const exited: Promise<TExit> = subprocess.then(
    (result) => {
      hasEnded = true;
      untrackGroup(pid);
      log?.end();
      const code = typeof result.exitCode === 'number' ? result.exitCode : null;
      const signal = (result.signal ?? null) as NodeJS.Signals | null;
      // A spawn failure (ENOENT) has neither an exit code nor a signal.
      const startError =
        code === null && signal === null && 'cause' in result && result.cause instanceof Error
          ? result.cause.message
          : undefined;
      return {
        code,
        signal,
        description: describeExit(code, signal, startError),
        stdout: out.text(),
        stderr: err.text(),
      };
    },
    // reject: false makes execa settle with a result; this is only a guard.
    (error: unknown) => {
      hasEnded = true;
      untrackGroup(pid);
      log?.end();
      const message = error instanceof Error ? error.message : String(error);
      return {
        code: null,
        signal: null,
        description: describeExit(null, null, message),
        stdout: out.text(),
        stderr: err.text(),
      };
    },
  );

  // execa's subprocess is also a promise (then/catch/finally mixed into the ChildProcess). We hand
  // it out as a plain ChildProcess: a thenable there would make `return child` in an async
  // function wait for the process to END. `exited` above already holds the promise.
  for (const method of ['then', 'catch', 'finally']) {
    Reflect.deleteProperty(subprocess, method);
  }

  const tailText = (lines = tail.max) =>
    tail.lines
      .slice(-lines)
      .map((entry) => (entry.stream === 'stderr' ? `[stderr] ${entry.line}` : entry.line))
      .join('\n') || '(no output)';
  const failure = async (what: string) => {
    const exit = await exited;
    return new Error(
      `${options.name} exited (${exit.description}) before ${what}. Its last output:\n${tailText()}`,
    );
  };

  const managed: TManagedProcess = {
    name: options.name,
    child,
    pid,
    stdout: out.text,
    stderr: err.text,
    tail: tailText,
    exited,
    hasExited: () => hasEnded,
    kill: (signal = 'SIGTERM') => {
      if (pid && !hasEnded) {
        signalGroup(pid, signal);
      }
    },
    stop: async (graceMs = 5_000) => {
      if (!hasEnded) {
        managed.kill('SIGTERM');
        const timer = setTimeout(() => managed.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // Anything it started that outlived it (a wrapper's child) goes with it.
      if (pid) {
        signalGroup(pid, 'SIGKILL');
      }
      return exited;
    },
    waitForLine: (match, { timeoutMs, stream } = {}) => {
      const test =
        typeof match === 'function'
          ? match
          : typeof match === 'string'
            ? (line: string) => line.includes(match)
            : (line: string) => match.test(line);
      const printed = [
        stream !== 'stderr' ? out.text() : '',
        stream !== 'stdout' ? err.text() : '',
      ];
      const seen = printed.join('\n').split('\n').find(test);
      if (seen !== undefined) {
        return Promise.resolve(seen);
      }
      return new Promise<string>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const done = () => {
          lineListeners.delete(listener);
          clearTimeout(timer);
        };
        const listener = (line: string, from: TOutputStream) => {
          if ((stream === undefined || stream === from) && test(line)) {
            done();
            resolve(line);
          }
        };
        lineListeners.add(listener);
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            done();
            reject(
              new Error(
                `${options.name} printed no line matching ${String(match)} within ` +
                  `${timeoutMs / 1000} s. Its last output:\n${tailText()}`,
              ),
            );
          }, timeoutMs);
        }
        void exited.then(async () => {
          if (lineListeners.has(listener)) {
            done();
            reject(await failure(`printing a line matching ${String(match)}`));
          }
        });
      });
    },
    waitForHttp: async (
      url,
      { timeoutMs = 60_000, isReady = () => true, intervalMs = 250 } = {},
    ) => {
      const deadline = Date.now() + timeoutMs;
      let last = 'no answer yet';
      while (Date.now() < deadline) {
        if (hasEnded) {
          throw await failure(`${url} was ready`);
        }
        const answer = await probeHttp(url);
        if (typeof answer === 'number' && isReady(answer)) {
          return;
        }
        last = typeof answer === 'number' ? `HTTP ${answer}` : answer;
        await sleep(intervalMs);
      }
      throw new Error(
        `${options.name} was not ready at ${url} within ${timeoutMs / 1000} s (last: ${last}). ` +
          `Its last output:\n${tailText()}`,
      );
    },
  };
  return managed;
};

/** The status `url` answers with, or why it did not answer. */
export const probeHttp = async (url: string, init: RequestInit = {}): Promise<number | string> => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000), ...init });
    await response.body?.cancel();
    return response.status;
  } catch (error) {
    return error instanceof Error
      ? ((error.cause as Error | undefined)?.message ?? error.message)
      : String(error);
  }
};

/** Polls `url` (of a process we did not start) until it answers as `isReady` wants. */
export const waitForHttp = async (
  url: string,
  { timeoutMs = 60_000, isReady = () => true, intervalMs = 250 }: THttpWaitOptions = {},
): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answer = await probeHttp(url);
    if (typeof answer === 'number' && isReady(answer)) {
      return true;
    }
    await sleep(intervalMs);
  }
  return false;
};

/**
 * Runs a command to its end and returns its exit and output; after `timeoutMs` its whole group
 * is killed (SIGKILL) and the exit says so.
 */
export const runProcess = async (
  options: Omit<TProcessOptions, 'keepOutput'> & { timeoutMs?: number },
): Promise<TExit> => {
  const started = startProcess(options);
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => started.kill('SIGKILL'), options.timeoutMs);
  const exit = await started.exited;
  clearTimeout(timer);
  return exit;
};

/** A TCP port that was free on 127.0.0.1 a moment ago. */
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
