import { describe, expect, it } from 'vitest';
import { decimalUpTo, ID_NUMBER_PATTERN } from './id';
import { MAX_ID } from './values';

const matcher = (source: string) => new RegExp(`^${source}$`);

describe('decimalUpTo', () => {
  it('matches exactly the numbers from 1 to the bound, without leading zeros', () => {
    for (const max of [1, 7, 9, 10, 19, 20, 99, 100, 101, 250, 909, 1000, 4096]) {
      const pattern = matcher(decimalUpTo(max));
      const wrong: number[] = [];
      for (let number = 0; number <= max * 11 + 10; number += 1) {
        if (pattern.test(String(number)) !== (number >= 1 && number <= max)) {
          wrong.push(number);
        }
      }
      expect(wrong, `up to ${max}`).toEqual([]);
      expect(pattern.test(`0${max}`)).toBe(false);
    }
  });

  it('reads the example of its comment', () => {
    expect(decimalUpTo(250)).toBe('(?:[1-9][0-9]{0,1}|1[0-9]{2}|2[0-4][0-9]|250)');
  });
});

describe('ID_NUMBER_PATTERN', () => {
  const pattern = matcher(ID_NUMBER_PATTERN);
  const top = BigInt(MAX_ID);

  it('stops at 2^53 - 1, as the ids the API hands out and reads', () => {
    expect(MAX_ID).toBe(2 ** 53 - 1);
    for (const near of [-3n, -2n, -1n, 0n, 1n, 2n]) {
      const number = top + near;
      expect(pattern.test(String(number)), String(number)).toBe(number <= top);
    }
    for (const text of ['1', '42', '999999999999999', '1000000000000000', '8999999999999999']) {
      expect(pattern.test(text), text).toBe(true);
    }
    for (const text of [
      '0',
      '07',
      '-1',
      '1.5',
      '9007199254740992',
      '9999999999999999',
      '1'.repeat(17),
    ]) {
      expect(pattern.test(text), text).toBe(false);
    }
  });

  it('agrees with a comparison of the numbers on every length and leading digit', () => {
    // Each prefix of the bound's digits, with each digit after it, then nines or zeros.
    const digits = String(MAX_ID);
    for (let index = 0; index < digits.length; index += 1) {
      for (let digit = 0; digit <= 9; digit += 1) {
        for (const fill of ['0', '9']) {
          const text = `${digits.slice(0, index)}${digit}${fill.repeat(digits.length - index - 1)}`;
          if (text.startsWith('0')) {
            continue;
          }
          expect(pattern.test(text), text).toBe(BigInt(text) <= top);
        }
      }
    }
  });
});
