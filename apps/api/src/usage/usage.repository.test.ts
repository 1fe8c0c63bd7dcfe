import { ApiKeysRepository } from '@pets/store/api-keys.repository';
import { UsageRepository } from '@pets/store/usage.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryOnce, testDatabase } from '../test/test-database';

const { pool, url, create, drop } = testDatabase();
const usage = new UsageRepository(pool);
const keys = new ApiKeysRepository(pool);
beforeAll(create);
afterAll(drop);

const newKey = async (name: string) =>
  (await keys.create({ name, plan: 'free', environment: 'production' })).apiKey.id;

const H = (iso: string) => new Date(iso).toISOString();

describe('add', () => {
  it('adds to the rows of each key, hour and class: two flushes, or two processes, add up', async () => {
    const a = await newKey('Adder');
    const deltas = {
      apiKeyIds: [String(a), String(a), String(a)],
      hours: [H('2026-11-20T08:00:00Z'), H('2026-11-20T08:00:00Z'), H('2026-11-20T09:00:00Z')],
      classes: ['2xx', '429', '2xx'],
      counts: [20, 3, 1],
    };
    await usage.add(deltas);
    await usage.add({ ...deltas, counts: [5, 0, 1] });
    await usage.add({ apiKeyIds: [], hours: [], classes: [], counts: [] });
    expect(
      await queryOnce(
        url,
        `SELECT to_char(hour AT TIME ZONE 'UTC', 'HH24') AS hour, status_class, count
           FROM api_key_usage_hourly WHERE api_key_id = $1 ORDER BY hour, status_class`,
        [String(a)],
      ),
    ).toEqual([
      { hour: '08', status_class: '2xx', count: 25 },
      { hour: '08', status_class: '429', count: 3 },
      { hour: '09', status_class: '2xx', count: 2 },
    ]);
  });

  it('leaves out the counts of a key deleted meanwhile, and keeps the others', async () => {
    const kept = await newKey('Kept');
    await usage.add({
      apiKeyIds: ['987654321', String(kept)],
      hours: [H('2026-11-20T08:00:00Z'), H('2026-11-20T08:00:00Z')],
      classes: ['2xx', '5xx'],
      counts: [7, 2],
    });
    expect(await usage.hourly([kept, 987_654_321n], new Date('2026-11-20T08:30:00Z'))).toEqual([
      {
        apiKeyId: kept,
        period: new Date('2026-11-20T08:00:00Z'),
        statusClass: '5xx',
        count: 2,
      },
    ]);
  });
});

describe('markUsed', () => {
  it('moves last_used_at forward only', async () => {
    const a = await newKey('Used');
    const b = await newKey('Never used');
    const lastUsed = async () =>
      (await keys.list())
        .filter((key) => key.id === a || key.id === b)
        .map((key) => key.lastUsedAt?.toISOString() ?? null);
    await usage.markUsed({ apiKeyIds: [String(a)], ats: [H('2026-11-20T08:00:01.250Z')] });
    expect(await lastUsed()).toEqual(['2026-11-20T08:00:01.250Z', null]);
    // Another process's older flush arrives late: no change.
    await usage.markUsed({ apiKeyIds: [String(a)], ats: [H('2026-11-20T07:59:00Z')] });
    expect(await lastUsed()).toEqual(['2026-11-20T08:00:01.250Z', null]);
    await usage.markUsed({ apiKeyIds: [], ats: [] });
  });
});

describe('hourly and daily', () => {
  it("read a set of keys' counts per hour and per UTC day, from a given time", async () => {
    const a = await newKey('Chart A');
    const b = await newKey('Chart B');
    const other = await newKey('Someone else');
    await usage.add({
      apiKeyIds: [a, a, a, b, b, other].map(String),
      hours: [
        '2026-11-19T23:00:00Z',
        '2026-11-20T00:00:00Z',
        '2026-11-20T13:00:00Z',
        '2026-11-20T13:00:00Z',
        '2026-11-20T13:00:00Z',
        '2026-11-20T13:00:00Z',
      ].map(H),
      classes: ['2xx', '2xx', '2xx', '2xx', '4xx', '2xx'],
      counts: [1, 2, 3, 4, 5, 100],
    });
    const hourly = await usage.hourly([a, b], new Date('2026-11-20T00:10:00Z'));
    expect(
      hourly.map((point) => [
        point.period.toISOString(),
        point.apiKeyId,
        point.statusClass,
        point.count,
      ]),
    ).toEqual([
      ['2026-11-20T00:00:00.000Z', a, '2xx', 2],
      ['2026-11-20T13:00:00.000Z', a, '2xx', 3],
      ['2026-11-20T13:00:00.000Z', b, '2xx', 4],
      ['2026-11-20T13:00:00.000Z', b, '4xx', 5],
    ]);
    const daily = await usage.daily([a, b], new Date('2026-11-19T12:00:00Z'));
    expect(
      daily.map((point) => [
        point.period.toISOString(),
        point.apiKeyId,
        point.statusClass,
        point.count,
      ]),
    ).toEqual([
      ['2026-11-19T00:00:00.000Z', a, '2xx', 1],
      ['2026-11-20T00:00:00.000Z', a, '2xx', 5],
      ['2026-11-20T00:00:00.000Z', b, '2xx', 4],
      ['2026-11-20T00:00:00.000Z', b, '4xx', 5],
    ]);
    expect(await usage.daily([], new Date('2026-11-19T00:00:00Z'))).toEqual([]);
  });
});

describe('prune', () => {
  it('deletes the hours before a time, in bounded steps', async () => {
    const a = await newKey('Old usage');
    await usage.add({
      apiKeyIds: [a, a, a].map(String),
      hours: ['2020-01-01T00:00:00Z', '2020-01-01T01:00:00Z', '2020-02-01T00:00:00Z'].map(H),
      classes: ['2xx', '2xx', '2xx'],
      counts: [1, 1, 1],
    });
    const before = new Date('2020-01-15T00:00:00Z');
    expect(await usage.prune(before, 1)).toBe(1);
    expect(await usage.prune(before, 10)).toBe(1);
    expect(await usage.prune(before, 10)).toBe(0);
    expect(
      (await usage.hourly([a], new Date('2019-01-01T00:00:00Z'))).map((point) =>
        point.period.toISOString(),
      ),
    ).toEqual(['2020-02-01T00:00:00.000Z']);
  });
});
