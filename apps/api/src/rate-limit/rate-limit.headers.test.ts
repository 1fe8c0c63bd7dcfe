import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, reportedWindow } from './rate-limit.headers';
import type { TDecision } from './rate-limit.types';

const minute = (used: number, resetInMs = 30_000) => ({
  name: 'minute',
  limit: 60,
  ttlMs: 60_000,
  used,
  resetInMs,
});
const day = (used: number, resetInMs = 3_600_000) => ({
  name: 'day',
  limit: 1000,
  ttlMs: 86_400_000,
  used,
  resetInMs,
});

describe('which window the headers report', () => {
  it('the one with the smallest share left', () => {
    expect(reportedWindow({ outcome: 'allowed', windows: [minute(1), day(1)] })?.name).toBe(
      'minute',
    );
    expect(reportedWindow({ outcome: 'allowed', windows: [minute(1), day(999)] })?.name).toBe(
      'day',
    );
  });

  it('when refused, the exhausted window that resets last', () => {
    const both: TDecision = { outcome: 'limited', windows: [minute(60), day(1000)] };
    expect(reportedWindow(both)?.name).toBe('day');
    const minuteOnly: TDecision = { outcome: 'limited', windows: [minute(60), day(500)] };
    expect(reportedWindow(minuteOnly)?.name).toBe('minute');
  });
});

describe('header values', () => {
  it('Reset is a Unix timestamp in seconds, Retry-After the seconds until it', () => {
    const now = 1_795_392_000_500;
    const headers = rateLimitHeaders(
      { outcome: 'limited', windows: [minute(60, 12_300), day(61)] },
      now,
    );
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1795392013',
      'Retry-After': '13',
      RateLimit: '"minute";r=0;t=13',
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
    });
  });

  it('a ban reports its own end', () => {
    const headers = rateLimitHeaders(
      { outcome: 'banned', windows: [minute(60), day(100)], banEndsInMs: 900_000, bannedNow: true },
      0,
    );
    expect(headers['Retry-After']).toBe('900');
    expect(headers['X-RateLimit-Reset']).toBe('900');
    expect(headers['X-RateLimit-Remaining']).toBe('0');
  });

  it("during a ban, RateLimit's t stays within its policy's window", () => {
    const headers = rateLimitHeaders(
      {
        outcome: 'banned',
        windows: [minute(60, 41_000), day(100)],
        banEndsInMs: 900_000,
        bannedNow: false,
      },
      0,
    );
    // The policy says w=60: a t of 900 would contradict it. The ban's end is in Retry-After.
    expect(headers['RateLimit-Policy']).toContain('"minute";q=60;w=60');
    expect(headers.RateLimit).toBe('"minute";r=0;t=41');
    expect(headers['Retry-After']).toBe('900');
  });

  it('no Retry-After on admitted requests', () => {
    expect(
      rateLimitHeaders({ outcome: 'allowed', windows: [minute(1), day(1)] }),
    ).not.toHaveProperty('Retry-After');
  });
});
