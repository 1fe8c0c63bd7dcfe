import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir, uptime } from 'node:os';
import { join } from 'node:path';
import { embeddedPaths } from '@pets/db';
import { hashApiKey } from '@pets/store/api-key-format';
import { Client, Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, startOwnerProcess, type TOwnerProcess } from '../test/cli-process';
import { queryOnce as query } from '../test/test-database';

/**
 * The embedded default (DATABASE_URL unset) across processes, with the compiled code: commands
 * on a new DATA_DIR, the API owning the directory while commands use it, restarts, a SIGKILL.
 * One DATA_DIR for the whole file: creating a PGlite database costs seconds, reopening one less.
 */

let dataDir: string;
let env: Record<string, string>;
let paths: ReturnType<typeof embeddedPaths>;
const owners: TOwnerProcess[] = [];

const cli = (...args: string[]) => runCliProcess(args, env);
const lines = (text: string) => text.split('\n').filter(Boolean);

type TOwnerRecord = { pid: number; role: string; state: string; url?: string };
const ownerRecord = async (): Promise<TOwnerRecord> =>
  JSON.parse(await readFile(paths.ownerFile, 'utf8')) as TOwnerRecord;

const startOwner = async (role: 'server' | 'tool' = 'server', holdMs = 0) => {
  const owner = startOwnerProcess(role, env, holdMs);
  owners.push(owner);
  return owner;
};

const startServer = async () => {
  const owner = await startOwner('server');
  const started = await owner.started;
  expect(started, started.stderr).toMatchObject({ isReady: true });
  return owner;
};

const stopGracefully = async (owner: TOwnerProcess) => {
  owner.child.kill('SIGTERM');
  return owner.exited;
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pets-embedded-'));
  env = { DATA_DIR: dataDir, APP_ENV: 'production' };
  paths = embeddedPaths(dataDir);
  expect((await cli('keys', 'help')).code).toBe(0); // warms tsx's cache
}, 120_000);

afterAll(async () => {
  for (const owner of owners) {
    owner.child.kill('SIGKILL');
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('the embedded database', () => {
  let firstKey: string;

  it('is created, migrated and used by a command on a new DATA_DIR, then released', async () => {
    const result = await cli('keys', 'create', '--plan', 'pro', '--name', 'first');
    expect(result.code, result.stderr).toBe(0);
    firstKey = lines(result.stdout).at(-1) ?? '';
    expect(firstKey).toMatch(/^pets_live_/);
    expect(lines(result.stdout)).toHaveLength(1);
    expect(result.stderr).toMatch(/Creating the embedded PostgreSQL database/);
    expect(existsSync(join(paths.pgdata, 'PG_VERSION'))).toBe(true);
    expect(existsSync(paths.ownerFile)).toBe(false);
  }, 60_000);

  it('keeps serving commands while the API owns it', async () => {
    const server = await startServer();
    const record = await ownerRecord();
    expect(record).toMatchObject({ pid: server.child.pid, role: 'server', state: 'ready' });

    const listed = await cli('keys', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/first\s+pro\s+partner\s+production/);
    const created = await cli('keys', 'create', '--plan', 'free', '--name', 'while running');
    expect(created.code, created.stderr).toBe(0);
    const key = lines(created.stdout).at(-1) ?? '';
    // The command went through the API's process: the API's own connection sees the key at once.
    const rows = await query(record.url ?? '', 'SELECT name FROM api_keys WHERE hash = $1', [
      hashApiKey(key),
    ]);
    expect(rows).toEqual([{ name: 'while running' }]);
    expect(await ownerRecord()).toEqual(record);
    const seeded = await cli('seed');
    expect(seeded.stdout).toMatch(/^Added 9 categories/);

    expect(await stopGracefully(server)).toMatchObject({ code: 0 });
    expect(existsSync(paths.ownerFile)).toBe(false);
  }, 60_000);

  it('refuses a second API on the same DATA_DIR with one line', async () => {
    const server = await startServer();
    const second = await startOwner('server');
    const started = await second.started;
    expect(started.isReady).toBe(false);
    expect(started.code).toBe(1);
    expect(lines(started.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: The embedded database in .* is already served by the API \\(pid ${server.child.pid}\\)`,
        ),
      ),
    ]);
    expect((await ownerRecord()).pid).toBe(server.child.pid);
    await stopGracefully(server);
  }, 60_000);

  it('serialises concurrent clients, even statements too large for one network read', async () => {
    const server = await startServer();
    const { url } = await ownerRecord();
    const pool = new Pool({ connectionString: url, max: 8 });
    try {
      await pool.query('CREATE TABLE IF NOT EXISTS mux_check (id serial PRIMARY KEY, body text)');
      const large = 'x'.repeat(300_000);
      const results = await Promise.all(
        Array.from({ length: 120 }, async (_, index) => {
          if (index % 10 === 0) {
            const { rows } = await pool.query<{ size: number }>(
              'INSERT INTO mux_check (body) VALUES ($1) RETURNING length(body) AS size',
              [large],
            );
            return rows[0]?.size === large.length;
          }
          if (index % 10 === 1) {
            const client = await pool.connect();
            try {
              await client.query('BEGIN');
              await client.query('INSERT INTO mux_check (body) VALUES ($1)', [`tx ${index}`]);
              await new Promise((resolve) => setTimeout(resolve, 5));
              const { rows } = await client.query(
                'SELECT count(*)::int AS n FROM mux_check WHERE body = $1',
                [`tx ${index}`],
              );
              await client.query('ROLLBACK');
              return rows[0]?.n === 1;
            } finally {
              client.release();
            }
          }
          const { rows } = await pool.query('SELECT $1::int AS a, $2::text AS b', [
            index,
            `v${index}`,
          ]);
          return rows[0]?.a === index && rows[0]?.b === `v${index}`;
        }),
      );
      expect(results.every(Boolean)).toBe(true);
      const { rows } = await pool.query(
        "SELECT count(*)::int AS n FROM mux_check WHERE body LIKE 'tx %'",
      );
      expect(rows[0]?.n).toBe(0);
      await pool.query('DROP TABLE mux_check');

      // A client that dies inside a transaction must not keep everyone else waiting.
      const doomed = new Client({ connectionString: url });
      doomed.on('error', () => undefined);
      await doomed.connect();
      await doomed.query('BEGIN');
      await doomed.query('CREATE TABLE half_made (id int)');
      (
        doomed as unknown as { connection: { stream: { destroy: () => void } } }
      ).connection.stream.destroy();
      const { rows: after } = await pool.query("SELECT to_regclass('half_made') AS name");
      expect(after).toEqual([{ name: null }]);
    } finally {
      await pool.end();
    }
    await stopGracefully(server);
  }, 60_000);

  it('keeps every row across a restart of the API', async () => {
    const before = await cli('keys', 'list', '--json');
    const server = await startServer();
    const { url } = await ownerRecord();
    await query(url ?? '', 'CREATE TABLE restart_check (id int)');
    await query(url ?? '', 'INSERT INTO restart_check SELECT generate_series(1, 1000)');
    await stopGracefully(server);

    const again = await startServer();
    const record = await ownerRecord();
    expect(await query(record.url ?? '', 'SELECT count(*)::int AS n FROM restart_check')).toEqual([
      { n: 1000 },
    ]);
    await query(record.url ?? '', 'DROP TABLE restart_check');
    expect((await cli('keys', 'list', '--json')).stdout).toBe(before.stdout);
    await stopGracefully(again);
  }, 60_000);

  it('keeps rows acknowledged before a SIGKILL, and the next process takes over the stale owner file', async () => {
    const server = await startServer();
    const { url } = await ownerRecord();
    await query(url ?? '', 'CREATE TABLE crash_check (id int)');
    const client = new Client({ connectionString: url });
    client.on('error', () => undefined);
    await client.connect();
    for (let index = 1; index <= 200; index += 1) {
      await client.query('INSERT INTO crash_check VALUES ($1)', [index]);
    }
    server.child.kill('SIGKILL');
    await server.exited;
    expect((await ownerRecord()).pid).toBe(server.child.pid);

    const listed = await cli('keys', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toMatch(new RegExp(`left by pid ${server.child.pid}, which is gone`));
    expect(existsSync(paths.ownerFile)).toBe(false);

    const restarted = await startServer();
    const record = await ownerRecord();
    expect(await query(record.url ?? '', 'SELECT count(*)::int AS n FROM crash_check')).toEqual([
      { n: 200 },
    ]);
    await query(record.url ?? '', 'DROP TABLE crash_check');
    await stopGracefully(restarted);
  }, 60_000);

  it.each([
    ['whose pid now belongs to another program (nothing listens on its address)', 0, 'ready'],
    ['from before a reboot (pid reused)', -3_600, 'starting'],
  ])(
    'takes over an owner file %s',
    async (_label, bootShift, state) => {
      const record = {
        id: 'left-over',
        pid: process.pid, // alive, but not an owner
        hostname: hostname(),
        role: 'server',
        state,
        startedAt: new Date().toISOString(),
        bootedAt: Math.round(Date.now() / 1000 - uptime()) + bootShift,
        ...(state === 'ready' ? { url: 'postgresql://postgres:x@127.0.0.1:1/postgres' } : {}),
      };
      await writeFile(paths.ownerFile, JSON.stringify(record));
      const listed = await cli('keys', 'list');
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stderr).toMatch(/Taking over the embedded database/);
      expect(existsSync(paths.ownerFile)).toBe(false);
    },
    60_000,
  );

  it('makes an API that starts while a command holds the directory wait for it', async () => {
    // Held long enough for a loaded machine's API to reach its check while the command still holds.
    const tool = await startOwner('tool', 8_000);
    expect((await tool.started).isReady).toBe(true);
    const server = await startOwner('server');
    const started = await server.started;
    expect(started.isReady, started.stderr).toBe(true);
    expect((await tool.exited).code).toBe(0);
    expect(started.stderr).toMatch(/Waiting for the embedded database/);
    expect(await ownerRecord()).toMatchObject({ pid: server.child.pid, role: 'server' });
    await stopGracefully(server);
  }, 60_000);

  it('rejects connections without the per-run password', async () => {
    const server = await startServer();
    const { url } = await ownerRecord();
    const wrong = new URL(url ?? '');
    wrong.password = 'guess';
    await expect(query(wrong.toString(), 'SELECT 1')).rejects.toThrow(
      /password authentication failed/,
    );
    await stopGracefully(server);
  }, 60_000);
});
