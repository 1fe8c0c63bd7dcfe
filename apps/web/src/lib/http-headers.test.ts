import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_AFTER_SECONDS, retryAfterSeconds, totalCountOf } from './http-headers';

describe('retryAfterSeconds', () => {
  const now = new Date('2026-11-23T10:00:00Z');

  it('reads delta-seconds', () => {
    expect(retryAfterSeconds('17', now)).toBe(17);
    expect(retryAfterSeconds(' 3 ', now)).toBe(3);
    expect(retryAfterSeconds('0', now)).toBe(1);
  });

  it('reads an HTTP date', () => {
    expect(retryAfterSeconds('Mon, 23 Nov 2026 10:00:42 GMT', now)).toBe(42);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(1);
  });

  it('falls back when the header is missing or unreadable', () => {
    expect(retryAfterSeconds(null, now)).toBe(DEFAULT_RETRY_AFTER_SECONDS);
    expect(retryAfterSeconds('soon', now)).toBe(DEFAULT_RETRY_AFTER_SECONDS);
    expect(retryAfterSeconds('-5', now)).toBe(DEFAULT_RETRY_AFTER_SECONDS);
  });
});

describe('totalCountOf', () => {
  it('reads a count', () => {
    expect(totalCountOf('137')).toBe(137);
    expect(totalCountOf(' 0 ')).toBe(0);
  });

  it('is undefined when the API did not count, or sent something that is not a count', () => {
    expect(totalCountOf(null)).toBeUndefined();
    expect(totalCountOf('')).toBeUndefined();
    expect(totalCountOf('-1')).toBeUndefined();
    expect(totalCountOf('12.5')).toBeUndefined();
    expect(totalCountOf('1e3')).toBeUndefined();
    expect(totalCountOf('99999999999999999')).toBeUndefined();
  });
});
