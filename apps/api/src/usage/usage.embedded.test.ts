import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedPaths } from '@pets/db';
import { hashApiKey } from '@pets/store/api-key-format';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from '../test/api-process';
import { runCliProcess } from '../test/cli-process';
import { queryOnce as query } from '../test/test-database';

/**
 * Usage counting on the embedded default (DATABASE_URL unset, PGlite through its wire server): the
 * flush's `unnest` arrays, its upsert and the last-use update work there too, during the run and
 * at shutdown.
 */

let dataDir: string;
let api: TApiProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pets-usage-embedded-'));
});

afterAll(async () => {
  if (api) {
    api.child.kill('SIGTERM');
    await api.exited;
  }
  await rm(dataDir, { recursive: true, force: true });
});

it('writes the counts of requests per key and their last use to the embedded database', {
  timeout: 180_000,
}, async () => {
  const env = { DATA_DIR: dataDir, USAGE_FLUSH_INTERVAL_MS: '600000' };
  api = await startApiProcess(env);
  const created = await runCliProcess(
    ['keys', 'create', '--plan', 'pro', '--name', 'counted'],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  const key = created.stdout.trim().split('\n').at(-1) ?? '';
  const call = async (path: string) => {
    const response = await fetch(`${api?.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await response.arrayBuffer();
    return response.status;
  };
  for (let index = 0; index < 5; index++) {
    expect(await call('/v1/pets?limit=1')).toBe(200);
  }
  expect(await call('/v1/pets/987654321')).toBe(404);
  // The rows, through the API's own wire server (the owner file names it while the API runs).
  const usage = async () => {
    const { url } = JSON.parse(await readFile(embeddedPaths(dataDir).ownerFile, 'utf8')) as {
      url: string;
    };
    return query<{ status_class: string; count: number }>(
      url,
      `SELECT u.status_class, u.count FROM api_key_usage_hourly u JOIN api_keys k
          ON k.id = u.api_key_id WHERE k.hash = $1 ORDER BY u.status_class`,
      [hashApiKey(key)],
    );
  };
  // No flush has run yet (its interval is long): the shutdown's writes them.
  api.child.kill('SIGTERM');
  expect(await api.exited).toBe(0);
  const listed = (await runCliProcess(['keys', 'list'], env)).stdout;
  expect(listed).toMatch(/counted\s.*active\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m);
  api = await startApiProcess(env);
  expect(await usage()).toEqual([
    { status_class: '2xx', count: 5 },
    { status_class: '4xx', count: 1 },
  ]);
});
