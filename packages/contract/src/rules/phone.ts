/**
 * A phone number as people write it: digits, spaces and ( ) - . with an optional leading +. One
 * rule for an adopter's phone (schemas/order.ts) and the store's own (`STORE_PHONE`, store/).
 */
export const PHONE_PATTERN = /^\+?[0-9][0-9 ().-]*$/;
export const PHONE_PATTERN_MESSAGE =
  'must be digits, spaces and ( ) - . with an optional leading +';
export const PHONE_MIN_LENGTH = 3;
export const PHONE_MAX_LENGTH = 32;
