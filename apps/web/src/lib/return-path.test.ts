import { describe, expect, it } from 'vitest';
import { sameSitePath } from './return-path';

/**
 * The site's one return-path rule over the spellings an attacker tries: whatever a browser would
 * resolve to another site, or to another path than written, is refused; a plain path of the area
 * is kept exactly.
 */
const STAFF = { within: '/staff', except: ['/staff/sign-in'] };

/** Where a browser goes from a page of the site when sent to `value` (the attack's target). */
const resolved = (value: string) => new URL(value, 'http://127.0.0.1:3000/staff/sign-in').href;

describe('a return path', () => {
  it.each([
    '/staff',
    '/staff/applications',
    '/staff/applications/3',
    '/staff/applications?status=placed&page=2',
    '/staff/animals?name=%C3%A9lan',
    '/staff/audit?from=2026-01-01&to=2026-01-31',
  ])('%s is kept as it is', (value) => {
    expect(sameSitePath(value, STAFF)).toBe(value);
  });

  it.each([
    // Another site, however spelled.
    '//evil.example/phish',
    '/staff/..//evil.example/phish',
    '/staff/../..//evil.example/phish',
    '/staff//evil.example/phish',
    '///evil.example/phish',
    '/\\evil.example/phish',
    '\\\\evil.example/phish',
    '/staff/..\\/evil.example',
    '/staff\\..\\..\\/evil.example',
    'https://evil.example/staff',
    'http:evil.example/staff',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\t/evil.example/phish',
    '/\n/evil.example/phish',
    '/staff/\t..//evil.example',
    ' /staff/applications',
    // Dot segments and their encoded forms: another path than written.
    '/staff/../developers',
    '/staff/./applications',
    '/staff/%2e%2e//evil.example',
    '/staff/%2E%2E/%2Fevil.example',
    '/staff/.%2e/developers',
    '/staff/%2e./developers',
    '/staff/%2fevil.example',
    '/staff/%2F%2Fevil.example',
    '/staff/%5cevil.example',
    '/staff/%5C%5Cevil.example',
    // Outside the area, the sign-in page itself, and nonsense.
    '/developers/keys',
    '/staffing',
    '/',
    '/staff/sign-in',
    '/staff/sign-in?next=/staff',
    '',
    'staff/applications',
    `/staff/${'a'.repeat(600)}`,
    '/staff/applications#top',
    '/staff/applications?q=a b',
    '/staff/\u0000',
  ])('%j is refused', (value) => {
    expect(sameSitePath(value, STAFF)).toBeUndefined();
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, ['/staff'], { toString: () => '/staff' }]) {
      expect(sameSitePath(value, STAFF)).toBeUndefined();
    }
  });

  it('never accepts a path a browser would resolve off the site, from any page', () => {
    const attempts = [
      '/staff/..//evil.example/phish',
      '/developers/..//evil.example/phish',
      '/staff/%2e%2e//evil.example',
      '/\\evil.example',
      '/staff/../../\\evil.example',
    ];
    for (const value of attempts) {
      expect(new URL(resolved(value)).host === '127.0.0.1:3000' || !sameSitePath(value)).toBe(true);
      expect(sameSitePath(value)).toBeUndefined();
    }
  });

  it('without an area, keeps any plain path of the site', () => {
    expect(sameSitePath('/saved-searches/confirm/abc_DEF-1.x?confirmed=1')).toBe(
      '/saved-searches/confirm/abc_DEF-1.x?confirmed=1',
    );
    expect(sameSitePath('/developers', { within: '/developers' })).toBe('/developers');
  });
});
