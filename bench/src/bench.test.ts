import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { TReport } from './report';

/**
 * The smoke run of `pnpm bench`: proves the harness works end to end (the production build of the
 * API and the floor on a database of their own, load from a second process, results written,
 * everything cleaned up). It measures nothing: performance targets live in the benchmark, never in
 * a timed test.
 */

const run = promisify(execFile);
const DATABASE_URL =
  process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const RUN_SCRIPT = join(__dirname, '..', 'dist', 'run.js');

const outDirs: string[] = [];
afterAll(async () => {
  await Promise.all(outDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const bench = async (env: Record<string, string>, args: string[]) => {
  const out = await mkdtemp(join(tmpdir(), 'pets-bench-test-'));
  outDirs.push(out);
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  const { stdout } = await run(process.execPath, [RUN_SCRIPT, '--smoke', '--out', out, ...args], {
    env: { ...inherited, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  const report = JSON.parse(await readFile(join(out, 'latest-smoke.json'), 'utf8')) as TReport;
  const markdown = await readFile(join(out, 'latest-smoke.md'), 'utf8');
  return { stdout, report, markdown };
};

describe('pnpm bench --smoke', () => {
  it('measures the API and the floor on PostgreSQL and Redis, then removes its database and keys', async () => {
    const { stdout, report, markdown } = await bench({ DATABASE_URL, REDIS_URL }, []);

    expect(report.kind).toBe('smoke');
    expect(report.database).toMatch(/^PostgreSQL .* \(created for this run\)$/);
    expect(report.rateLimits).toMatch(/^Redis at /);
    expect(report.results.map((each) => `${each.size} ${each.scenario}`)).toEqual([
      ...[500, 2000].flatMap((size) =>
        [
          'list',
          'status',
          'deep',
          'profile',
          'search',
          'create',
          'update',
          'orders',
          'place',
          'idempotent',
        ].map((scenario) => `${size} ${scenario}`),
      ),
    ]);
    // The conventional NestJS peer (peer.ts) serves the lists, with the same answers (checked
    // before any load), and none of the rest.
    expect(
      report.results.filter((each) => each.peer).map((each) => `${each.size} ${each.scenario}`),
    ).toEqual([500, 2000].flatMap((size) => ['list', 'status', 'deep'].map((s) => `${size} ${s}`)));
    for (const each of report.results) {
      for (const side of [each.ours, each.floor, ...(each.peer ? [each.peer] : [])]) {
        expect(side.requests).toBeGreaterThan(0);
        expect(side.non2xx + side.errors + side.timeouts).toBe(0);
        expect(side.latencyMs.p99).toBeGreaterThanOrEqual(side.latencyMs.p50);
        expect(side.peakRssMb).toBeGreaterThan(10);
      }
      expect(each.throughputRatio).toBeGreaterThan(0);
      if (['list', 'status', 'deep', 'profile'].includes(each.scenario)) {
        expect(each.plan?.summary).toMatch(/Index Scan/);
      } else {
        expect(each.plan).toBeNull();
      }
    }
    expect(report.targets.map((each) => each.name)).toContain(
      'API peak memory (RSS) under load, PostgreSQL',
    );
    expect(report.apiRssAtRestMb).toBeGreaterThan(10);
    expect(report.machine.cores).toBeGreaterThan(0);
    // The table is printed and written.
    expect(markdown).toContain('| Pets | Request | Ours req/s | Floor req/s | Ours ÷ floor |');
    expect(stdout).toContain(markdown.split('\n')[4]);

    const database = /pets_bench_[a-z0-9_]+/.exec(report.database)?.[0];
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      database,
    ]);
    await admin.end();
    expect(database).toBeTruthy();
    expect(rowCount).toBe(0);

    const prefix = /pets:bench:[0-9a-f]+:/.exec(report.rateLimits)?.[0];
    const redis = new Redis(REDIS_URL);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    redis.disconnect();
    expect(prefix).toBeTruthy();
    expect(keys).toEqual([]);
  });

  it('runs on an embedded database and says so when DATABASE_URL is unset', async () => {
    const { report } = await bench({}, ['--only', 'list,create', '--sizes', '300']);

    expect(report.database).toMatch(/^embedded PostgreSQL \(PGlite\) in /);
    const dataDir = /in (\S+),/.exec(report.database)?.[1] ?? '';
    expect(existsSync(dataDir)).toBe(false);
    expect(report.rateLimits).toBe("the API's memory (REDIS_URL unset)");
    expect(report.results.map((each) => each.scenario)).toEqual(['list', 'create']);
    expect(report.targets.map((each) => each.name)).toContain(
      'API memory (RSS) at rest, embedded database',
    );
    for (const each of report.results) {
      expect(each.ours.requests).toBeGreaterThan(0);
      expect(each.floor.requests).toBeGreaterThan(0);
    }
    expect(report.results[0]?.peer?.requests).toBeGreaterThan(0);
  });
});
