import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_AFTER_SECONDS, nextLinkOf, retryAfterSeconds } from './http-headers';

const BASE = 'http://localhost:4000/v1';

describe('nextLinkOf', () => {
  it('reads a relative rel="next" link against the API address', () => {
    const next = nextLinkOf('</v1/pets?limit=20&cursor=eyJpZCI6MjJ9>; rel="next"', BASE);
    expect(next?.href).toBe('http://localhost:4000/v1/pets?limit=20&cursor=eyJpZCI6MjJ9');
    expect(next?.searchParams.get('cursor')).toBe('eyJpZCI6MjJ9');
  });

  it('finds next among several links, unquoted or with several relation types', () => {
    const header =
      '<https://api.example.org/v1/pets>; rel="successor-version", ' +
      '<https://api.example.org/v1/pets?cursor=a%2Cb>; title="more, please"; rel="prefetch next"';
    expect(nextLinkOf(header, BASE)?.searchParams.get('cursor')).toBe('a,b');
    expect(nextLinkOf('</v1/pets?cursor=x>; rel=next', BASE)?.searchParams.get('cursor')).toBe('x');
    expect(nextLinkOf('</v1/pets?cursor=x>; REL="Next"', BASE)?.searchParams.get('cursor')).toBe(
      'x',
    );
  });

  it('is undefined without a next link', () => {
    expect(nextLinkOf(null, BASE)).toBeUndefined();
    expect(nextLinkOf('', BASE)).toBeUndefined();
    expect(nextLinkOf('</v1/pets>; rel="successor-version"', BASE)).toBeUndefined();
    expect(nextLinkOf('garbage', BASE)).toBeUndefined();
  });
});

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
