import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_AFTER_SECONDS, retryAfterSeconds } from './http-headers';

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
