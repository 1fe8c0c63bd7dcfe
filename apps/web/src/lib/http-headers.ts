/**
 * Readers for the response headers the site relies on: the RFC 8288 `Link` header that carries the
 * next page of a list (parsed by the contract, the one parser every package uses), and
 * `Retry-After` on a 429.
 */
export { nextCursorOf, nextLinkOf } from '@pets/contract/rules';

/** Used when a 429 carries no usable `Retry-After`. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/**
 * Whole seconds to wait, from `Retry-After` as delta-seconds or as an HTTP date (RFC 9110),
 * at least 1.
 */
export const retryAfterSeconds = (header: string | null, now: Date = new Date()): number => {
  const value = header?.trim();
  if (!value) {
    return DEFAULT_RETRY_AFTER_SECONDS;
  }
  if (/^\d+$/.test(value)) {
    return Math.max(1, Number(value));
  }
  // An HTTP date names its day and month ("Sun, 06 Nov 1994 08:49:37 GMT"); anything without
  // letters (such as "-5") is not one, although Date.parse would accept it.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) {
    return DEFAULT_RETRY_AFTER_SECONDS;
  }
  return Math.max(1, Math.ceil((date - now.getTime()) / 1000));
};

/**
 * How many items a list has on all its pages, from `X-Total-Count` (sent when asked for), or
 * undefined when it is missing or not a plain count.
 */
export const totalCountOf = (header: string | null): number | undefined => {
  const value = header?.trim();
  if (!value || !/^\d{1,16}$/.test(value)) {
    return undefined;
  }
  const count = Number(value);
  return Number.isSafeInteger(count) ? count : undefined;
};
