import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A port nobody listens on right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

const tail = (file: string, lines = 20): string => {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
};

const waitForExit = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * Starts `node <args>` with its output in `logFile`, and waits until it answers HTTP on
 * `baseUrl` (any status: a 401 on /v1/pets means it is serving).
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
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, nodeArgs, { env, stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = waitForExit(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (graceMs = 15_000) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      return;
    }
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited before serving; its last output:\n${tail(logFile)}`);
    }
    try {
      await fetch(`${baseUrl}/v1/pets`, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop(1_000);
        throw new Error(`${name} did not serve within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
      }
      await sleep(100);
    }
  }
  return { name, pid: child.pid ?? 0, baseUrl, logFile, stop };
};

/** Runs `node <script> <json>` and parses the JSON line it prints. */
export const runNodeJson = <T>(script: string, input: unknown): Promise<T> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(input)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`${script} exited with ${code}: ${stderr.trim()}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as T);
      } catch {
        reject(new Error(`${script} printed no result: ${stdout}${stderr}`));
      }
    });
  });
