import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { EMBEDDED_START_PARAMS } from './embedded-params.js';
import { migrate } from './migrate.js';
import { startPgliteServer, type TPgliteServer } from './pglite-server.js';

/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: PGlite (PostgreSQL compiled to
 * WebAssembly) keeping its files in `<DATA_DIR>/postgres`, served on 127.0.0.1 by
 * ./pglite-server so that every user connects with the ordinary `pg` driver.
 *
 * PGlite is one single-process backend: exactly one process may open a data directory. That
 * process, the OWNER, records itself in `<DATA_DIR>/postgres.owner.json` (pid, role, address with
 * a per-run password; mode 0600) and everyone else connects to it:
 *
 * - The API is a `server` owner for its whole life. A second server finds a live server owner and
 *   stops with one line. A server that finds a short-lived tool holding the directory waits for it
 *   (up to `serverWaitMs`).
 * - Tools (key CLI, db:migrate, db:seed) connect to whatever live owner there is; when there is
 *   none they become the owner for their own lifetime and then release the directory. A tool
 *   owner lets other clients that are still connected finish before it shuts down.
 * - An owner file whose pid is dead (a crash, a SIGKILL) is stale and is taken over.
 *
 * The owner applies the migrations before it publishes its address, so whoever connects finds
 * the schema up to date.
 */

export type TEmbeddedRole = 'server' | 'tool';

export type TEmbeddedDatabase = {
  /** postgresql:// URL of the owner's socket, password included: never log it. */
  url: string;
  /** Whether this process opened the data directory (and serves it) or connected to the owner. */
  isOwner: boolean;
  /** Migrations this process applied while opening the directory (owners only). */
  appliedMigrations: string[];
  /** Owners: stop serving, flush PGlite to disk and release the directory. Others: nothing. */
  close: () => Promise<void>;
};

export type TOpenEmbeddedOptions = {
  role: TEmbeddedRole;
  /** How long a server waits for a tool to release the directory. Default 30 s. */
  serverWaitMs?: number;
  /** How long anyone waits for an owner that is still starting or shutting down. Default 60 s. */
  startWaitMs?: number;
  /** Progress lines for people (e.g. "initialising a new embedded database"). */
  onInfo?: (message: string) => void;
};

type TOwnerState = 'starting' | 'ready' | 'closing';

type TOwnerRecord = {
  /** Identifies one ownership, so a stale record is never confused with a fresh one. */
  id: string;
  pid: number;
  hostname: string;
  role: TEmbeddedRole;
  state: TOwnerState;
  startedAt: string;
  /** When the machine booted (s since the epoch): a record from an earlier boot is stale. */
  bootedAt: number;
  url?: string;
};

/** Why an embedded database could not be opened, in one line. */
export class EmbeddedDatabaseError extends Error {}

export const embeddedPaths = (dataDir: string) => ({
  pgdata: join(dataDir, 'postgres'),
  ownerFile: join(dataDir, 'postgres.owner.json'),
});

const POLL_MS = 100;

/**
 * A new data directory is created by a child process (./embedded-create: PGlite's initdb, which
 * runs a second, short-lived PGlite instance, and the first migrations), so that their memory
 * (~1.2 GB at the peak, and PGlite's WebAssembly memory never shrinks) leaves with it: a first
 * start is then what a later start is, at rest. Resolves with the migrations it applied.
 */
const createInChild = (pgdata: string): Promise<string[]> =>
  new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'embedded-create.js'), [pgdata], {
      // Not the parent's flags (an inspector's port, a heap limit meant for the API); WebAssembly
      // on the baseline compiler only, as the API runs (apps/api/src/runtime-flags.ts): optimising
      // PGlite's module would cost this short life more than it saves.
      execArgv: ['--liftoff-only'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let applied: string[] = [];
    let stderr = '';
    child.on('message', (message: { applied?: string[] }) => {
      applied = message.applied ?? [];
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) {
        resolve(applied);
      } else {
        const why = stderr.trim().split('\n').at(-1) || `it stopped (${signal ?? code})`;
        reject(new Error(why));
      }
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const bootedAt = (): number => Math.round(Date.now() / 1000 - uptime());

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const parseRecord = (text: string): TOwnerRecord | null => {
  try {
    const value = JSON.parse(text) as Partial<TOwnerRecord>;
    return typeof value.id === 'string' && typeof value.pid === 'number'
      ? (value as TOwnerRecord)
      : null;
  } catch {
    return null;
  }
};

/** The current owner file: null when there is none; `record` is null when it is unreadable. */
const readOwner = async (
  ownerFile: string,
): Promise<{ text: string; record: TOwnerRecord | null } | null> => {
  try {
    const text = await readFile(ownerFile, 'utf8');
    return { text, record: parseRecord(text) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return null;
    }
    throw error;
  }
};

const temporaryPath = (path: string) => `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;

/** Creates the owner file with its whole content at once; false when another owner exists. */
const tryCreateOwner = async (ownerFile: string, record: TOwnerRecord): Promise<boolean> => {
  const temporary = temporaryPath(ownerFile);
  await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
  try {
    linkSync(temporary, ownerFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return false;
    }
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
};

const replaceOwner = async (ownerFile: string, record: TOwnerRecord): Promise<void> => {
  const temporary = temporaryPath(ownerFile);
  await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
  await rename(temporary, ownerFile);
};

/**
 * Removes an owner file known to be stale. It is first moved aside (atomic) and checked: if a
 * new owner replaced the stale one in the meantime, its file is put back.
 */
const removeStaleOwner = async (ownerFile: string, staleText: string): Promise<void> => {
  const aside = temporaryPath(`${ownerFile}.stale`);
  try {
    await rename(ownerFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return;
    }
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  if (moved !== staleText) {
    try {
      linkSync(aside, ownerFile);
    } catch {
      // Yet another owner appeared meanwhile; it keeps the directory.
    }
  }
  await unlink(aside).catch(() => undefined);
};

/** Removes our owner file on the way out, unless another owner has it by now. */
const releaseOwner = (ownerFile: string, id: string): void => {
  try {
    const current = parseRecord(readFileSync(ownerFile, 'utf8'));
    if (current?.id === id) {
      const aside = temporaryPath(`${ownerFile}.released`);
      renameSync(ownerFile, aside);
      unlinkSync(aside);
    }
  } catch {
    // Already gone.
  }
};

type TProbe = 'ok' | 'refused' | 'unanswered';

/** Whether an owner answers on its address; 'refused' means nothing listens there at all. */
const probe = async (url: string): Promise<TProbe> => {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'ok';
  } catch (error) {
    const { code, errors } = error as { code?: string; errors?: { code?: string }[] };
    return (code ?? errors?.[0]?.code) === 'ECONNREFUSED' ? 'refused' : 'unanswered';
  } finally {
    await client.end().catch(() => undefined);
  }
};

/**
 * Whether an owner record can be taken over. Only certain signs count, since two processes
 * opening the same PGlite files would corrupt them: its process is gone; or it dates from an
 * earlier boot and does not answer; or it says it is ready but nothing listens on its address
 * (its pid now belongs to another program). A slow owner is never taken over.
 */
const isStale = async (owner: TOwnerRecord): Promise<boolean> => {
  if (owner.hostname !== hostname()) {
    return false;
  }
  if (!isAlive(owner.pid)) {
    return true;
  }
  const answer = owner.url ? await probe(owner.url) : 'refused';
  if (Math.abs((owner.bootedAt ?? 0) - bootedAt()) > 60 && answer !== 'ok') {
    return true;
  }
  return owner.state === 'ready' && answer === 'refused';
};

const describeOwner = (owner: TOwnerRecord) =>
  `${owner.role === 'server' ? 'the API' : 'a command'} (pid ${owner.pid}${owner.hostname === hostname() ? '' : ` on ${owner.hostname}`})`;

/** Data directories this process owns, so that a second open in the same process connects. */
const ownedHere = new Map<string, string>();

const becomeOwner = async (
  dataDir: string,
  record: TOwnerRecord,
  onInfo: (message: string) => void,
): Promise<TEmbeddedDatabase> => {
  const { pgdata, ownerFile } = embeddedPaths(dataDir);
  const onExit = () => releaseOwner(ownerFile, record.id);
  process.once('exit', onExit);
  const release = () => {
    process.off('exit', onExit);
    releaseOwner(ownerFile, record.id);
  };

  let db: PGlite;
  let createdWith: string[] = [];
  try {
    const isNew = !(await readFile(join(pgdata, 'PG_VERSION'), 'utf8').catch(() => null));
    if (isNew) {
      onInfo(`Creating the embedded PostgreSQL database in ${pgdata} (a few seconds, once).`);
    }
    if (isNew) {
      createdWith = await createInChild(pgdata);
    }
    db = await PGlite.create(pgdata, { startParams: EMBEDDED_START_PARAMS });
  } catch (error) {
    release();
    throw new EmbeddedDatabaseError(
      `Could not open the embedded database in ${pgdata}: ${(error as Error).message}`,
    );
  }

  const password = randomBytes(18).toString('base64url');
  let server: TPgliteServer | null = null;
  try {
    server = await startPgliteServer({ db, password });
    const running = server;
    const url = `postgresql://postgres:${password}@${server.host}:${server.port}/postgres`;
    const { applied } = await migrate(url);
    await replaceOwner(ownerFile, { ...record, state: 'ready', url });
    ownedHere.set(dataDir, url);

    let closing: Promise<void> | null = null;
    const close = () => {
      closing ??= (async () => {
        ownedHere.delete(dataDir);
        await replaceOwner(ownerFile, { ...record, state: 'closing' }).catch(() => undefined);
        try {
          // A tool owner lets other commands that use it finish; the API, on shutdown, gives
          // connected commands a moment.
          await running.stop(record.role === 'tool' ? 30_000 : 5_000);
        } finally {
          await db.close();
          release();
        }
      })();
      return closing;
    };
    return { url, isOwner: true, appliedMigrations: [...createdWith, ...applied], close };
  } catch (error) {
    await server?.stop(0).catch(() => undefined);
    await db.close().catch(() => undefined);
    release();
    throw error;
  }
};

/**
 * Opens the embedded database in `dataDir` for this process: as its owner when nobody holds it,
 * otherwise by connecting to the live owner (see the rules at the top of this file).
 */
export const openEmbeddedDatabase = async (
  dataDir: string,
  { role, serverWaitMs = 30_000, startWaitMs = 60_000, onInfo = () => {} }: TOpenEmbeddedOptions,
): Promise<TEmbeddedDatabase> => {
  const { ownerFile } = embeddedPaths(dataDir);
  const sharedUrl = ownedHere.get(dataDir);
  if (sharedUrl) {
    return { url: sharedUrl, isOwner: false, appliedMigrations: [], close: async () => {} };
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });

  const record: TOwnerRecord = {
    id: randomBytes(12).toString('hex'),
    pid: process.pid,
    hostname: hostname(),
    role,
    state: 'starting',
    startedAt: new Date().toISOString(),
    bootedAt: bootedAt(),
  };
  const startedWaiting = Date.now();
  let hasAnnouncedWait = false;
  const wait = async (deadlineMs: number, message: string): Promise<void> => {
    if (Date.now() - startedWaiting > deadlineMs) {
      throw new EmbeddedDatabaseError(message);
    }
    if (!hasAnnouncedWait) {
      hasAnnouncedWait = true;
      onInfo('Waiting for the embedded database to be released or ready...');
    }
    await sleep(POLL_MS);
  };

  for (;;) {
    if (await tryCreateOwner(ownerFile, record)) {
      return becomeOwner(dataDir, record, onInfo);
    }
    const current = await readOwner(ownerFile);
    if (current === null) {
      continue;
    }
    const owner = current.record;
    if (owner === null) {
      await removeStaleOwner(ownerFile, current.text);
      continue;
    }
    if (await isStale(owner)) {
      onInfo(`Taking over the embedded database left by pid ${owner.pid}, which is gone.`);
      await removeStaleOwner(ownerFile, current.text);
      continue;
    }
    if (role === 'server' && owner.role === 'server') {
      throw new EmbeddedDatabaseError(
        `The embedded database in ${dataDir} is already served by ${describeOwner(owner)}: stop it first, or give this one another DATA_DIR or a DATABASE_URL.`,
      );
    }
    if (role === 'server') {
      await wait(
        serverWaitMs,
        `The embedded database in ${dataDir} is still held by ${describeOwner(owner)} after ${Math.round(serverWaitMs / 1000)} s: let it finish, then start again.`,
      );
      continue;
    }
    if (owner.state === 'ready' && owner.url && (await probe(owner.url)) === 'ok') {
      return { url: owner.url, isOwner: false, appliedMigrations: [], close: async () => {} };
    }
    await wait(
      startWaitMs,
      `The embedded database in ${dataDir} is held by ${describeOwner(owner)}, which does not answer: stop that process (or delete ${ownerFile} if it is gone).`,
    );
  }
};
