import { describe, expect, it } from 'vitest';
import { formatOrderReference, parseOrderReference } from './order-reference';

describe('application references', () => {
  it('are A- and the order id', () => {
    expect(formatOrderReference(17)).toBe('A-17');
    expect(parseOrderReference(formatOrderReference(17))).toBe(17);
  });

  it('are read however people copy them', () => {
    for (const text of ['A-17', 'a-17', 'a17', 'A 17', '#17', ' 17 ', 'A-017']) {
      expect(parseOrderReference(text), text).toBe(17);
    }
  });

  it('are nothing when they cannot name an order', () => {
    for (const text of ['', 'A-', 'A-0', 'B-17', '17a', '-17', '1.5', '9'.repeat(16)]) {
      expect(parseOrderReference(text), text).toBeUndefined();
    }
  });
});
