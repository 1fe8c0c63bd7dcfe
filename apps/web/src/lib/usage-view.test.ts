import { describe, expect, it } from 'vitest';
import { hourLabel, totalOf, usageDays, usageHours, usageWindowOf } from './usage-view';

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

describe('usageHours', () => {
  it('sums the keys per hour over the window, every hour listed, oldest first', () => {
    const hours = usageHours(
      [
        {
          hourly: [
            period('2026-11-27T12:00:00.000Z', { '2xx': 99 }),
            period('2026-11-27T13:00:00.000Z', { '2xx': 4, '429': 1 }),
          ],
        },
        { hourly: [period('2026-11-27T14:00:00.000Z', { '5xx': 2 })] },
      ],
      new Date('2026-11-27T13:00:00.000Z'),
      new Date('2026-11-27T16:00:00.000Z'),
    );
    expect(hours.map((hour) => [hourLabel(hour.hour), totalOf(hour)])).toEqual([
      ['2026-11-27 13:00', 5],
      ['2026-11-27 14:00', 2],
      ['2026-11-27 15:00', 0],
    ]);
    expect(hours[0]).toMatchObject({ success: 4, limited: 1 });
  });
});

describe('usageWindowOf', () => {
  const now = new Date('2026-11-27T18:47:00.000Z');

  it('is per day unless asked per hour', () => {
    expect(usageWindowOf({}, now, 30)).toEqual({ by: 'day' });
    expect(usageWindowOf({ granularity: 'minute' }, now, 30)).toEqual({ by: 'day' });
  });

  it('shows the last 48 hours, this one included', () => {
    expect(usageWindowOf({ granularity: 'hour' }, now, 30)).toEqual({
      by: 'hour',
      from: new Date('2026-11-25T19:00:00.000Z'),
      to: new Date('2026-11-27T19:00:00.000Z'),
      day: undefined,
    });
  });

  it("shows a chosen day's hours, today's up to this one", () => {
    expect(usageWindowOf({ granularity: 'hour', day: '2026-11-20' }, now, 30)).toMatchObject({
      from: new Date('2026-11-20T00:00:00.000Z'),
      to: new Date('2026-11-21T00:00:00.000Z'),
      day: '2026-11-20',
    });
    expect(usageWindowOf({ granularity: 'hour', day: '2026-11-27' }, now, 30)).toMatchObject({
      from: new Date('2026-11-27T00:00:00.000Z'),
      to: new Date('2026-11-27T19:00:00.000Z'),
    });
  });

  it('ignores a day outside the 30 days, in the future or not a date', () => {
    for (const day of ['2026-10-01', '2026-11-28', '2026-13-45', 'yesterday']) {
      expect(usageWindowOf({ granularity: 'hour', day }, now, 30)).toMatchObject({
        day: undefined,
      });
    }
  });
});
