/**
 * An application's reference as adopters see it: `A-` and the order's id (`A-17`). The prefix
 * keeps it apart from an animal's reference (`#42`). Reading is forgiving of how people copy it:
 * `A-17`, `a17`, `#17`, ` 17 `. The reference alone shows nothing: the status page also needs the
 * email the application was made with.
 */
const PREFIX = 'A-';
const PATTERN = /^\s*(?:a\s*-?\s*|#)?0*([1-9]\d{0,14})\s*$/i;

export const formatReference = (orderId: number): string => `${PREFIX}${orderId}`;

/** The order id a typed reference names, or undefined when it cannot be one. */
export const parseReference = (text: string): number | undefined => {
  const match = PATTERN.exec(text);
  if (!match?.[1]) {
    return undefined;
  }
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
};
