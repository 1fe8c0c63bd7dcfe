import { MAX_ID } from './values';

const digitRange = (low: number, high: number): string =>
  low === high ? String(low) : `[${low}-${high}]`;

const anyDigits = (count: number): string =>
  count === 0 ? '' : count === 1 ? '[0-9]' : `[0-9]{${count}}`;

/**
 * A regular expression's source, without anchors, for the decimal numbers from 1 to `max`
 * written without leading zeros: `decimalUpTo(250)` is
 * `(?:[1-9][0-9]{0,1}|1[0-9]{2}|2[0-4][0-9]|250)`. What a pattern says where a schema has no
 * `maximum` to say it: in a text that carries ids.
 */
export const decimalUpTo = (max: number): string => {
  const digits = String(max);
  const shorter =
    digits.length === 1 ? [] : [`[1-9]${digits.length > 2 ? `[0-9]{0,${digits.length - 2}}` : ''}`];
  // Each number as long as the bound: its first digits, then a smaller one, then any.
  const sameLength = [...digits].flatMap((digit, index) => {
    const lowest = index === 0 ? 1 : 0;
    if (Number(digit) <= lowest) {
      return [];
    }
    const smaller = digitRange(lowest, Number(digit) - 1);
    return [`${digits.slice(0, index)}${smaller}${anyDigits(digits.length - index - 1)}`];
  });
  return `(?:${[...shorter, ...sameLength, digits].join('|')})`;
};

/**
 * An id's number as a pattern: 1 to MAX_ID (2^53 - 1), without leading zeros. A prefixed id
 * (`we_12`, `evt_1042`) and the list of ids of `listPets` state their bound with it, as an integer
 * id states it with `maximum`; a value beyond is refused (`400`), not looked up.
 */
export const ID_NUMBER_PATTERN = decimalUpTo(MAX_ID);
