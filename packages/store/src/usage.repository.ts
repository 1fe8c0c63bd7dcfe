import { prepare, sql, type TQueryable } from '@pets/db';

/** The classes a response is counted in: 429 apart from the other 4xx (a limit met, not a fault). */
export const USAGE_STATUS_CLASSES = ['2xx', '3xx', '4xx', '429', '5xx'] as const;
export type TUsageStatusClass = (typeof USAGE_STATUS_CLASSES)[number];

/**
 * Counts to add, as parallel arrays (one element per key, hour and class, each triple once): what
 * one flush of a process's counters sends, in one statement whatever its size.
 */
export type TUsageDeltas = {
  apiKeyIds: string[];
  /** The start of each hour, UTC, RFC 3339. */
  hours: string[];
  classes: string[];
  counts: number[];
};

/** When each key was last used, as parallel arrays (one element per key). */
export type TLastUsed = { apiKeyIds: string[]; ats: string[] };

/**
 * Adds each count to its row, creating it as needed. Additive, so every API process flushes into
 * the same rows without coordination. The arrays are zipped by `unnest` in the select list
 * (set-returning functions there run in lockstep), the same rows as `FROM unnest(a, b, c, d)`.
 * A key deleted since it was counted would fail the whole batch: its rows are left out.
 */
const ADD_STATEMENT = prepare((db, p: TUsageDeltas) =>
  db
    .insertInto('api_key_usage_hourly')
    .columns(['api_key_id', 'hour', 'status_class', 'count'])
    .expression((eb) =>
      eb
        .selectFrom(
          db
            .selectNoFrom([
              sql<string>`unnest(${p.apiKeyIds}::bigint[])`.as('api_key_id'),
              sql<Date>`unnest(${p.hours}::timestamptz[])`.as('hour'),
              sql<string>`unnest(${p.classes}::text[])`.as('status_class'),
              sql<number>`unnest(${p.counts}::int[])`.as('count'),
            ])
            .as('d'),
        )
        .select(['d.api_key_id', 'd.hour', 'd.status_class', 'd.count'])
        .where((inner) =>
          inner.exists(
            inner
              .selectFrom('api_keys')
              .select(sql`1`.as('one'))
              .whereRef('api_keys.id', '=', 'd.api_key_id'),
          ),
        ),
    )
    .onConflict((conflict) =>
      conflict.columns(['api_key_id', 'hour', 'status_class']).doUpdateSet({
        count: sql<number>`api_key_usage_hourly.count + excluded.count`,
      }),
    ),
);

/** Moves `last_used_at` forward only: a late flush of another process never moves it back. */
const LAST_USED_STATEMENT = prepare((db, p: TLastUsed) =>
  db
    .updateTable('api_keys')
    .from(
      db
        .selectNoFrom([
          sql<string>`unnest(${p.apiKeyIds}::bigint[])`.as('id'),
          sql<Date>`unnest(${p.ats}::timestamptz[])`.as('at'),
        ])
        .as('v'),
    )
    .set({ last_used_at: sql<Date>`v.at` })
    .whereRef('api_keys.id', '=', 'v.id')
    .where((eb) =>
      eb.or([
        eb('api_keys.last_used_at', 'is', null),
        eb('api_keys.last_used_at', '<', eb.ref('v.at')),
      ]),
    ),
);

/** One bounded step of the retention sweep, by the `hour` index. */
const PRUNE_STATEMENT = prepare((db, p: { before: Date; limit: number }) =>
  db
    .deleteFrom('api_key_usage_hourly')
    .where(
      sql<boolean>`(api_key_id, hour, status_class) in (${db
        .selectFrom('api_key_usage_hourly')
        .select(['api_key_id', 'hour', 'status_class'])
        .where('hour', '<', p.before)
        .orderBy('hour')
        .limit(p.limit)})`,
    ),
);

const HOURLY_STATEMENT = prepare((db, p: { apiKeyIds: string[]; from: Date }) =>
  db
    .selectFrom('api_key_usage_hourly')
    .select([
      'api_key_id as apiKeyId',
      'hour as period',
      'status_class as statusClass',
      sql<number>`count`.as('count'),
    ])
    .where('api_key_id', '=', sql<string>`any(${p.apiKeyIds}::bigint[])`)
    .where('hour', '>=', p.from)
    .orderBy('hour')
    .orderBy('api_key_id')
    .orderBy('status_class'),
);

const DAILY_STATEMENT = prepare((db, p: { apiKeyIds: string[]; from: Date }) =>
  db
    .selectFrom('api_key_usage_hourly')
    .select([
      'api_key_id as apiKeyId',
      sql<Date>`date_trunc('day', hour, 'UTC')`.as('period'),
      'status_class as statusClass',
      sql<string>`sum(count)`.as('count'),
    ])
    .where('api_key_id', '=', sql<string>`any(${p.apiKeyIds}::bigint[])`)
    .where('hour', '>=', sql<Date>`date_trunc('day', ${p.from}::timestamptz, 'UTC')`)
    .groupBy(['api_key_id', sql`date_trunc('day', hour, 'UTC')`, 'status_class'])
    .orderBy('period')
    .orderBy('api_key_id')
    .orderBy('status_class'),
);

/** A key's requests in one hour or one UTC day, in one status class. */
export type TUsagePoint = {
  apiKeyId: bigint;
  /** The start of the hour, or of the day (UTC). */
  period: Date;
  statusClass: TUsageStatusClass;
  count: number;
};

const toPoint = (row: {
  apiKeyId: string;
  period: Date;
  statusClass: string;
  count: number | string;
}): TUsagePoint => ({
  apiKeyId: BigInt(row.apiKeyId),
  period: row.period,
  statusClass: row.statusClass as TUsageStatusClass,
  count: Number(row.count),
});

/**
 * The requests of each key per hour and status class (`api_key_usage_hourly`): written in batches
 * by the API's usage counter, read by the developer portal's charts, swept after 35 days.
 */
export class UsageRepository {
  constructor(private readonly db: TQueryable) {}

  /** Adds a flush's counts; one statement. */
  async add(deltas: TUsageDeltas): Promise<void> {
    if (deltas.apiKeyIds.length > 0) {
      await ADD_STATEMENT.execute(this.db, deltas);
    }
  }

  /** Moves each key's `last_used_at` forward to the time given, never back; one statement. */
  async markUsed(lastUsed: TLastUsed): Promise<void> {
    if (lastUsed.apiKeyIds.length > 0) {
      await LAST_USED_STATEMENT.execute(this.db, lastUsed);
    }
  }

  /** Deletes at most `limit` hours' rows from before `before`; answers how many. */
  async prune(before: Date, limit: number): Promise<number> {
    const result = await PRUNE_STATEMENT.execute(this.db, { before, limit });
    return result.rowCount ?? 0;
  }

  /** Per hour, from the hour that holds `from`: at most 720 rows per key and class for 30 days. */
  async hourly(apiKeyIds: readonly bigint[], from: Date): Promise<TUsagePoint[]> {
    const hourStart = new Date(from.getTime() - (from.getTime() % 3_600_000));
    const { rows } = await HOURLY_STATEMENT.execute(this.db, {
      apiKeyIds: apiKeyIds.map(String),
      from: hourStart,
    });
    return rows.map(toPoint);
  }

  /** Per UTC day, from the day that holds `from`. */
  async daily(apiKeyIds: readonly bigint[], from: Date): Promise<TUsagePoint[]> {
    const { rows } = await DAILY_STATEMENT.execute(this.db, {
      apiKeyIds: apiKeyIds.map(String),
      from,
    });
    return rows.map(toPoint);
  }
}
