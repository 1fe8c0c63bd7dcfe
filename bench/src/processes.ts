import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runProcess, startProcess } from '@pets/testing';

export { freePort } from '@pets/testing';

/** Resident set size of a process in bytes, or null when it cannot be read (it has exited). */
export const rssBytes = (pid: number): number | null => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    // Not Linux: ask ps.
    try {
      const kb = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      return kb ? Number(kb) * 1024 : null;
    } catch {
      return null;
    }
  }
};

let clockTicks: number | undefined;

/** CPU time (user + system) a process has used so far, in ms; null where /proc is missing. */
export const cpuTimeMs = (pid: number): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return null;
  }
};

/** Samples a process's RSS every `everyMs` until stopped; returns the largest sample. */
export const startRssSampler = (pid: number, everyMs = 100) => {
  let peak = rssBytes(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid) ?? 0);
  }, everyMs);
  return {
    stop: (): number => {
      clearInterval(timer);
      return Math.max(peak, rssBytes(pid) ?? 0);
    },
  };
};

export type TServer = {
  name: string;
  pid: number;
  baseUrl: string;
  logFile: string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
};

/**
 * Starts `node <args>` with its output in `logFile` (appended), and waits until it answers HTTP
 * on `baseUrl` (any status: a 401 on /v1/pets means it is serving).
 */
export const startServer = async ({
  name,
  nodeArgs,
  env,
  port,
  logFile,
  timeoutMs = 120_000,
}: {
  name: string;
  nodeArgs: string[];
  env: Record<string, string>;
  port: number;
  logFile: string;
  timeoutMs?: number;
}): Promise<TServer> => {
  const server = startProcess({
    name,
    command: process.execPath,
    args: nodeArgs,
    env,
    logFile,
    append: true,
    keepOutput: false,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await server.waitForHttp(`${baseUrl}/v1/pets`, { timeoutMs, intervalMs: 100 });
  } catch (error) {
    await server.stop(1_000);
    throw error;
  }
  return {
    name,
    pid: server.pid,
    baseUrl,
    logFile,
    stop: async (graceMs = 15_000) => {
      await server.stop(graceMs);
    },
  };
};

/** Runs `node <script> <json>` and parses the JSON line it prints. */
export const runNodeJson = async <T>(script: string, input: unknown): Promise<T> => {
  const exit = await runProcess({
    name: script,
    command: process.execPath,
    args: [script, JSON.stringify(input)],
    env: process.env,
  });
  if (exit.code !== 0) {
    throw new Error(`${script} exited with ${exit.code}: ${exit.stderr.trim()}`);
  }
  try {
    return JSON.parse(exit.stdout.trim().split('\n').pop() ?? '') as T;
  } catch {
    throw new Error(`${script} printed no result: ${exit.stdout}${exit.stderr}`);
  }
};
