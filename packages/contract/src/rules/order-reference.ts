/**
 * An application's reference, as the adopter is told it and as staff, emails and lists show it:
 * `A-` and the order's id (`A-17`). The prefix keeps it apart from an animal's reference (`#42`).
 * Reading is forgiving of how people copy it: `A-17`, `a17`, `#17`, ` 17 `. The reference alone
 * shows an adopter nothing: their status page also needs the email the application was made with.
 */
export const ORDER_REFERENCE_PREFIX = 'A-';

const PATTERN = /^\s*(?:a\s*-?\s*|#)?0*([1-9]\d{0,14})\s*$/i;

export const formatOrderReference = (orderId: number | string): string =>
  `${ORDER_REFERENCE_PREFIX}${orderId}`;

/** The order id a typed reference names, or undefined when it cannot be one. */
export const parseOrderReference = (text: string): number | undefined => {
  const match = PATTERN.exec(text);
  if (!match?.[1]) {
    return undefined;
  }
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
};
