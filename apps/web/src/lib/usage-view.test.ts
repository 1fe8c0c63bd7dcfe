import { describe, expect, it } from 'vitest';
import { totalOf, usageDays } from './usage-view';

const period = (
  start: string,
  counts: Partial<Record<'2xx' | '3xx' | '4xx' | '429' | '5xx', number>>,
) => ({
  start,
  counts: { '2xx': 0, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0, ...counts },
});

describe('usageDays', () => {
  it('sums the keys per UTC day, folds 3xx into successes, oldest first', () => {
    const days = usageDays([
      { daily: [period('2026-11-27T00:00:00.000Z', { '2xx': 20, '3xx': 1, '429': 2 })] },
      {
        daily: [
          period('2026-11-26T00:00:00.000Z', { '4xx': 3 }),
          period('2026-11-27T00:00:00.000Z', { '2xx': 5, '5xx': 1 }),
        ],
      },
    ]);
    expect(days).toEqual([
      { day: '2026-11-26', success: 0, clientError: 3, limited: 0, serverError: 0 },
      { day: '2026-11-27', success: 26, clientError: 0, limited: 2, serverError: 1 },
    ]);
    expect(days.map(totalOf)).toEqual([3, 29]);
  });
});
