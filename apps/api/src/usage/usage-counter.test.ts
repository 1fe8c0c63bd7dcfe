import { hashApiKey } from '@pets/store/api-key-format';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../jobs/job-queue';
import { startTestApi, type TTestApi, useTestApi } from '../test/api-harness';
import { startApiProcess } from '../test/api-process';
import { startPostgres, type TPostgresServer } from '../test/postgres-server';
import { createTestDatabase, queryOnce, type TTestDatabase } from '../test/test-database';

/**
 * Each key's requests, counted per hour and status class over real HTTP and written to the
 * database in batches (usage/usage-counter.ts): what the developer portal will chart.
 */

const FLUSH_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type TUsageRow = { hour: string; status_class: string; count: number };

/** A key's rows, oldest hour first. */
const usageOf = (url: string, key: string): Promise<TUsageRow[]> =>
  queryOnce<TUsageRow>(
    url,
    `SELECT to_char(u.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS hour,
            u.status_class, u.count
       FROM api_key_usage_hourly u JOIN api_keys k ON k.id = u.api_key_id
      WHERE k.hash = $1 ORDER BY u.hour, u.status_class`,
    [hashApiKey(key)],
  );

/**
 * Waits until the key's counts, by status class over all its hours, are `expected` (a flush or
 * several), or fails after `timeoutMs`. Summed: a test that runs across the top of an hour has
 * two rows of a class (CI's check at 12:00 saw 10, the new hour's row, for 3 + 10).
 */
const waitForUsage = async (
  url: string,
  key: string,
  expected: Record<string, number>,
  timeoutMs = 15_000,
): Promise<TUsageRow[]> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await usageOf(url, key);
    const seen: Record<string, number> = {};
    for (const row of rows) {
      seen[row.status_class] = (seen[row.status_class] ?? 0) + Number(row.count);
    }
    const same = (a: Record<string, number>, b: Record<string, number>) =>
      JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
    if (same(seen, expected) || Date.now() > deadline) {
      expect(seen).toEqual(expected);
      return rows;
    }
    await sleep(50);
  }
};

const thisHour = () => `${new Date().toISOString().slice(0, 13)}:00:00Z`;

const callMany = async (api: TTestApi, key: string, times: number, path = '/v1/me') => {
  const statuses: number[] = [];
  for (let index = 0; index < times; index++) {
    const response = await api.fetch(path, { key });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
};

describe('one API process', () => {
  const api = useTestApi({ env: { USAGE_FLUSH_INTERVAL_MS: String(FLUSH_MS) } });

  it("counts a key's 25 requests in one row of this hour, class 2xx, and records its last use", async () => {
    const key = await api.createKey({ name: 'Counted' });
    const before = Date.now();
    expect(new Set(await callMany(api, key, 25))).toEqual(new Set([200]));
    const rows = await waitForUsage(api.database.url, key, { '2xx': 25 });
    expect(rows).toEqual([{ hour: thisHour(), status_class: '2xx', count: 25 }]);
    // Several flushes later, still 25: a flushed count is never sent twice.
    await sleep(FLUSH_MS * 5);
    expect(await usageOf(api.database.url, key)).toEqual(rows);
    const [used] = await queryOnce<{ last_used_at: Date }>(
      api.database.url,
      'SELECT last_used_at FROM api_keys WHERE hash = $1',
      [hashApiKey(key)],
    );
    expect(used?.last_used_at.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(used?.last_used_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("counts a valid key's 429s apart, its 4xx apart, and no request without a valid key", async () => {
    const key = await api.createKey({
      name: 'Limited',
      plan: 'enterprise',
      rateLimitPerMinute: 3,
      rateLimitPerDay: 1_000,
    });
    expect(await callMany(api, key, 5)).toEqual([200, 200, 200, 429, 429]);
    const other = await api.createKey({ name: 'Finds nothing' });
    expect(await callMany(api, other, 2, '/v1/pets/999999999')).toEqual([404, 404]);
    const unknown = await api.fetch('/v1/me', { key: `pets_live_${'x'.repeat(32)}` });
    expect(unknown.status).toBe(401);
    await waitForUsage(api.database.url, key, { '2xx': 3, '429': 2 });
    await waitForUsage(api.database.url, other, { '4xx': 2 });
    const [{ keys } = { keys: 0 }] = await queryOnce<{ keys: number }>(
      api.database.url,
      'SELECT count(DISTINCT api_key_id)::int AS keys FROM api_key_usage_hourly',
    );
    // The three keys above (the default key of the first test included), nothing for the 401.
    expect(keys).toBe(3);
  });

  it('deletes usage hours older than 35 days on its daily schedule', async () => {
    const key = await api.createKey({ name: 'Old usage' });
    await callMany(api, key, 1);
    await waitForUsage(api.database.url, key, { '2xx': 1 });
    await queryOnce(
      api.database.url,
      `INSERT INTO api_key_usage_hourly (api_key_id, hour, status_class, count)
       SELECT id, date_trunc('hour', now() - interval '36 days'), '2xx', 9 FROM api_keys WHERE hash = $1`,
      [hashApiKey(key)],
    );
    expect(await usageOf(api.database.url, key)).toHaveLength(2);
    const boss = new PgBoss({
      connectionString: api.database.url,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.send(QUEUES.pruneUsage, {});
    await boss.stop({ graceful: false });
    const deadline = Date.now() + 30_000;
    while ((await usageOf(api.database.url, key)).length > 1) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(100);
    }
    expect(await usageOf(api.database.url, key)).toEqual([
      { hour: thisHour(), status_class: '2xx', count: 1 },
    ]);
  });
});

describe('several API processes on one database', () => {
  let first: TTestApi;
  let second: TTestApi;
  beforeAll(async () => {
    first = await startTestApi({ env: { USAGE_FLUSH_INTERVAL_MS: String(FLUSH_MS) } });
    second = await startTestApi({
      database: first.database,
      env: { USAGE_FLUSH_INTERVAL_MS: String(FLUSH_MS) },
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("add up one key's counts in the same rows", async () => {
    const key = await first.createKey({ name: 'Two replicas' });
    await Promise.all([callMany(first, key, 12), callMany(second, key, 13)]);
    await waitForUsage(first.database.url, key, { '2xx': 25 });
  });
});

describe('shutdown', () => {
  let database: TTestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('writes what was counted since the last flush when the application closes', async () => {
    const api = await startTestApi({
      database,
      env: { USAGE_FLUSH_INTERVAL_MS: '600000' },
    });
    const key = await api.createKey({ name: 'Closing' });
    try {
      await callMany(api, key, 7);
      await sleep(300);
      expect(await usageOf(database.url, key)).toEqual([]);
    } finally {
      await api.close();
    }
    expect(await usageOf(database.url, key)).toEqual([
      { hour: thisHour(), status_class: '2xx', count: 7 },
    ]);
  });

  it('the built API writes them on SIGTERM, before its pool closes', async () => {
    const api = await startApiProcess({
      DATABASE_URL: database.url,
      USAGE_FLUSH_INTERVAL_MS: '600000',
      JOBS_WORKER: 'off',
    });
    const [keyRow] = await queryOnce<{ id: string }>(
      database.url,
      "INSERT INTO api_keys (name, environment, plan, hash, start) VALUES ('Process', 'production', 'pro', $1, 'pets_live_Proc') RETURNING id",
      [hashApiKey(`pets_live_Proc${'s'.repeat(28)}`)],
    );
    expect(keyRow).toBeDefined();
    const key = `pets_live_Proc${'s'.repeat(28)}`;
    try {
      for (let index = 0; index < 4; index++) {
        const response = await fetch(`${api.baseUrl}/v1/me`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      expect(await usageOf(database.url, key)).toEqual([]);
    } finally {
      api.child.kill('SIGTERM');
    }
    expect(await api.exited).toBe(0);
    expect(await usageOf(database.url, key)).toEqual([
      { hour: thisHour(), status_class: '2xx', count: 4 },
    ]);
  });
});

describe('a flush while the database is down', () => {
  let postgres: TPostgresServer;
  let database: TTestDatabase;
  let api: TTestApi;
  // The key cache's clock stands still: the key stays known while the database is away.
  const frozen = performance.now();

  beforeAll(async () => {
    postgres = await startPostgres();
    database = await createTestDatabase({ adminUrl: postgres.adminUrl });
    api = await startTestApi({
      database,
      env: {
        USAGE_FLUSH_INTERVAL_MS: '200',
        JOBS_WORKER: 'off',
        DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      },
      keyCache: { now: () => frozen },
    });
  }, 90_000);
  afterAll(async () => {
    await api?.close();
    await postgres?.close();
  });

  it('keeps the counts and writes them once the database is back', async () => {
    const key = await api.createKey({ name: 'Outage' });
    await callMany(api, key, 3);
    await waitForUsage(database.url, key, { '2xx': 3 });

    await postgres.stopImmediately();
    expect(new Set(await callMany(api, key, 10))).toEqual(new Set([200]));
    // Several flushes fail meanwhile.
    await sleep(1_000);
    await postgres.start();
    await waitForUsage(database.url, key, { '2xx': 13 }, 20_000);
    expect(
      api.logs.some((line) => line.msg === 'usage counts not written: kept for the next flush'),
    ).toBe(true);
  }, 60_000);
});
