import type { TKeyUsage } from '@pets/contract/site';

/** Requests of one period by outcome: successes (2xx and 3xx), 4xx but 429, 429, 5xx. */
export type TUsageCounts = {
  success: number;
  clientError: number;
  limited: number;
  serverError: number;
};

/**
 * One UTC day of requests as the usage page shows it: successes (2xx and 3xx), client errors
 * (4xx but 429), refusals for the rate limit (429) and server errors (5xx).
 */
export type TUsageDay = TUsageCounts & {
  /** YYYY-MM-DD, UTC. */
  day: string;
};

/** One hour of requests: its start, `YYYY-MM-DDTHH:00:00.000Z`. */
export type TUsageHour = TUsageCounts & { hour: string };

/** One bar of the usage chart: its label on the axis and its counts. */
export type TUsageBar = TUsageCounts & { label: string };

type TPeriod = TKeyUsage['daily'][number];

const ZERO: TUsageCounts = { success: 0, clientError: 0, limited: 0, serverError: 0 };

const addCounts = (sum: TUsageCounts, period: TPeriod): void => {
  sum.success += period.counts['2xx'] + period.counts['3xx'];
  sum.clientError += period.counts['4xx'];
  sum.limited += period.counts['429'];
  sum.serverError += period.counts['5xx'];
};

/** The keys' daily counts summed per day, oldest first (the API gives every day, zeros too). */
export const usageDays = (usages: readonly Pick<TKeyUsage, 'daily'>[]): TUsageDay[] => {
  const byDay = new Map<string, TUsageDay>();
  for (const usage of usages) {
    for (const period of usage.daily) {
      const day = period.start.slice(0, 10);
      const sum = byDay.get(day) ?? { day, ...ZERO };
      addCounts(sum, period);
      byDay.set(day, sum);
    }
  }
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
};

const HOUR_MS = 3_600_000;

/**
 * The keys' hourly counts summed per hour, for every hour from `from` (inclusive) to `to`
 * (exclusive), zeros too, oldest first. Both are whole UTC hours.
 */
export const usageHours = (
  usages: readonly Pick<TKeyUsage, 'hourly'>[],
  from: Date,
  to: Date,
): TUsageHour[] => {
  const byHour = new Map<number, TUsageHour>();
  for (let at = from.getTime(); at < to.getTime(); at += HOUR_MS) {
    byHour.set(at, { hour: new Date(at).toISOString(), ...ZERO });
  }
  for (const usage of usages) {
    for (const period of usage.hourly) {
      const sum = byHour.get(Date.parse(period.start));
      if (sum) {
        addCounts(sum, period);
      }
    }
  }
  return [...byHour.values()];
};

/** Every request of the period. */
export const totalOf = (counts: TUsageCounts): number =>
  counts.success + counts.clientError + counts.limited + counts.serverError;

/** What the usage page shows: per UTC day over 30 days, or per hour (48 hours, or one day's 24). */
export type TUsageWindow =
  | { by: 'day' }
  | { by: 'hour'; from: Date; to: Date; day: string | undefined };

/** How many hours the hourly view shows when no day is chosen. */
export const RECENT_HOURS = 48;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The window the page's query asks for (`?granularity=hour`, and `&day=YYYY-MM-DD` for one UTC
 * day's 24 hours), at `now`. A day outside the last `days` days, or not a date, is ignored: the
 * last 48 hours show instead. Anything else is the daily view.
 */
export const usageWindowOf = (
  query: { granularity?: unknown; day?: unknown },
  now: Date,
  days: number,
): TUsageWindow => {
  if (query.granularity !== 'hour') {
    return { by: 'day' };
  }
  const nextHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (typeof query.day === 'string' && DAY_PATTERN.test(query.day)) {
    const start = Date.parse(`${query.day}T00:00:00.000Z`);
    if (!Number.isNaN(start) && start <= today && start > today - days * 24 * HOUR_MS) {
      return {
        by: 'hour',
        from: new Date(start),
        to: new Date(Math.min(start + 24 * HOUR_MS, nextHour)),
        day: query.day,
      };
    }
  }
  return {
    by: 'hour',
    from: new Date(nextHour - RECENT_HOURS * HOUR_MS),
    to: new Date(nextHour),
    day: undefined,
  };
};

/** An hour as the table and the chart write it: `2026-11-27 14:00` (UTC). */
export const hourLabel = (hour: string): string => `${hour.slice(0, 10)} ${hour.slice(11, 16)}`;
