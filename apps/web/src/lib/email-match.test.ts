import { describe, expect, it } from 'vitest';
import { isSameEmail } from './email-match';

describe('isSameEmail', () => {
  it('matches the same address however it is capitalised or padded', () => {
    expect(isSameEmail(' ADA@Example.org ', 'ada@example.org')).toBe(true);
    expect(isSameEmail('ada@example.org', 'Ada@Example.org')).toBe(true);
  });

  it('refuses any other address, a prefix or an empty one', () => {
    expect(isSameEmail('ada@example.com', 'ada@example.org')).toBe(false);
    expect(isSameEmail('ada@example.or', 'ada@example.org')).toBe(false);
    expect(isSameEmail('', 'ada@example.org')).toBe(false);
  });
});
