import { chown, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runProcess, startProcess, type TManagedProcess } from '@pets/testing';

/**
 * A PostgreSQL server of a test's own, for fault tests that stop, crash or freeze the database:
 * never the machine's shared server. It runs from a fresh `initdb` in a temporary directory, on a
 * free port of 127.0.0.1 (its socket in that directory), as the `postgres` user (PostgreSQL
 * refuses to run as root), with trust authentication, and is removed by close().
 *
 * The server is started through `setpriv`, which execs PostgreSQL itself, so the child is the
 * postmaster; pause() freezes it and every backend, as a hung host would.
 */

/** Debian's PostgreSQL (the version the machine has); POSTGRES_BIN points elsewhere. */
const BIN = process.env.POSTGRES_BIN || '/usr/lib/postgresql/15/bin';
const RUN_AS = 'postgres';

export type TPostgresServer = {
  port: number;
  /** postgresql://postgres@127.0.0.1:<port>/postgres: for createTestDatabase({ adminUrl }). */
  adminUrl: string;
  /** A crash without cleanup: `pg_ctl stop -m immediate`; the next start() recovers from the WAL. */
  stopImmediately: () => Promise<void>;
  /** Starts it again (after stopImmediately), once it accepts connections. */
  start: () => Promise<void>;
  /** SIGSTOP to the postmaster and all its backends: connections stay open, nothing answers. */
  pause: () => Promise<void>;
  /** SIGCONT: it answers again, the waiting statements included. */
  resume: () => Promise<void>;
  /** Stops it (resumed first, if paused) and removes its directory. */
  close: () => Promise<void>;
};

const idOf = async (flag: '-u' | '-g'): Promise<number> => {
  const { code, stdout } = await runProcess({
    name: 'id',
    command: 'id',
    args: [flag, RUN_AS],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  if (code !== 0) {
    throw new Error(`There is no ${RUN_AS} user to run a PostgreSQL of the test's own.`);
  }
  return Number(stdout.trim());
};

const asPostgres = (command: string, args: string[]) => ({
  command: 'setpriv',
  args: [`--reuid=${RUN_AS}`, `--regid=${RUN_AS}`, '--init-groups', join(BIN, command), ...args],
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
});

/** The processes whose parent is `parent`, from /proc (Linux). */
const childrenOf = async (parent: number): Promise<number[]> => {
  const entries = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const children = await Promise.all(
    entries.map(async (name) => {
      try {
        const stat = await readFile(`/proc/${name}/stat`, 'utf8');
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === parent ? Number(name) : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return children.filter((pid): pid is number => pid !== undefined);
};

const READY_LINE = 'database system is ready to accept connections';

export const startPostgres = async (): Promise<TPostgresServer> => {
  const [uid, gid] = await Promise.all([idOf('-u'), idOf('-g')]);
  const root = await mkdtemp(join(tmpdir(), 'pets-pg-'));
  const dataDir = join(root, 'data');
  await mkdir(dataDir);
  await Promise.all([chown(root, uid, gid), chown(dataDir, uid, gid)]);

  const initdb = await runProcess({
    name: 'initdb',
    ...asPostgres('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--no-sync',
    ]),
    timeoutMs: 60_000,
  });
  if (initdb.code !== 0) {
    await rm(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${initdb.description}): ${initdb.stderr.slice(-2_000)}`);
  }

  const port = await freePort();
  let server: TManagedProcess | undefined;
  let isPaused = false;

  const start = async () => {
    const started = startProcess({
      name: 'postgres (own)',
      ...asPostgres('postgres', [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        root,
        '-c',
        'listen_addresses=127.0.0.1',
        // A process crash keeps what the kernel has: acknowledged commits survive an immediate
        // stop without fsync, which only matters when the machine itself goes down.
        '-c',
        'fsync=off',
        '-c',
        'max_connections=50',
      ]),
      keepOutput: false,
    });
    server = started;
    try {
      await started.waitForLine(READY_LINE, { timeoutMs: 30_000 });
    } catch (error) {
      await started.stop(0);
      throw error;
    }
  };

  const stopImmediately = async () => {
    const running = server;
    if (!running) {
      return;
    }
    const stop = await runProcess({
      name: 'pg_ctl stop',
      ...asPostgres('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '20']),
      timeoutMs: 30_000,
    });
    if (stop.code !== 0) {
      await running.stop(0);
    }
    await running.exited;
    server = undefined;
  };

  // Every backend makes itself a process group leader (setsid), so a signal to the postmaster's
  // group reaches the postmaster alone: each process is signalled. The postmaster first, so that
  // it forks no new backend meanwhile; then its children, looked up twice in case one was being
  // forked at that moment.
  const signalAll = async (signal: 'SIGSTOP' | 'SIGCONT') => {
    const postmaster = server?.pid;
    if (!postmaster) {
      return;
    }
    const signalled = new Set<number>();
    const send = (pid: number) => {
      signalled.add(pid);
      try {
        process.kill(pid, signal);
      } catch {
        // It ended meanwhile.
      }
    };
    send(postmaster);
    for (let pass = 0; pass < 2; pass += 1) {
      for (const pid of await childrenOf(postmaster)) {
        if (!signalled.has(pid)) {
          send(pid);
        }
      }
    }
  };
  const pause = async () => {
    isPaused = true;
    await signalAll('SIGSTOP');
  };
  const resume = async () => {
    isPaused = false;
    await signalAll('SIGCONT');
  };

  await start();
  return {
    port,
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stopImmediately,
    pause,
    resume,
    close: async () => {
      if (isPaused) {
        await resume();
      }
      // SIGQUIT: PostgreSQL's immediate shutdown, without waiting for its clients.
      server?.kill('SIGQUIT');
      await server?.stop(5_000);
      server = undefined;
      await rm(root, { recursive: true, force: true });
    },
  };
};
