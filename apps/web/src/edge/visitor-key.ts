import { isIPv6 } from 'node:net';

/** Expands an IPv6 address to its eight groups. */
const groupsOf = (address: string): string[] => {
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
};

/**
 * The key a visitor's limits are counted under: the IPv4 address, or the /64 of an IPv6 one (one
 * household or server usually holds a whole /64, as the API also counts).
 */
export const visitorKeyOf = (address: string): string =>
  isIPv6(address)
    ? `${groupsOf(address)
        .slice(0, 4)
        .map((group) => Number.parseInt(group || '0', 16).toString(16))
        .join(':')}::/64`
    : address;
