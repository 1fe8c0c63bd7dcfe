import type { TKeyUsage } from '@pets/contract/site';

/**
 * One UTC day of requests as the usage page shows it: successes (2xx and 3xx), client errors
 * (4xx but 429), refusals for the rate limit (429) and server errors (5xx).
 */
export type TUsageDay = {
  /** YYYY-MM-DD, UTC. */
  day: string;
  success: number;
  clientError: number;
  limited: number;
  serverError: number;
};

/** The keys' daily counts summed per day, oldest first (the API gives every day, zeros too). */
export const usageDays = (usages: readonly Pick<TKeyUsage, 'daily'>[]): TUsageDay[] => {
  const byDay = new Map<string, TUsageDay>();
  for (const usage of usages) {
    for (const period of usage.daily) {
      const day = period.start.slice(0, 10);
      const sum = byDay.get(day) ?? { day, success: 0, clientError: 0, limited: 0, serverError: 0 };
      sum.success += period.counts['2xx'] + period.counts['3xx'];
      sum.clientError += period.counts['4xx'];
      sum.limited += period.counts['429'];
      sum.serverError += period.counts['5xx'];
      byDay.set(day, sum);
    }
  }
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
};

/** Every request of the days. */
export const totalOf = (day: TUsageDay): number =>
  day.success + day.clientError + day.limited + day.serverError;
