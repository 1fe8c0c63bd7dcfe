/**
 * Links to reach the store, the same on the site and in emails. The map is a search link, not an
 * embedded map: the site loads nothing from other hosts, and a search finds the place from the
 * address people already read.
 */

/** `tel:` link of a phone number as people write it: the leading + and the digits only (RFC 3966). */
export const telHref = (phone: string): string =>
  `tel:${phone.trim().startsWith('+') ? '+' : ''}${phone.replace(/\D/g, '')}`;

/** `mailto:` link of an address (already validated as an email, so nothing to escape but @). */
export const mailtoHref = (email: string): string => `mailto:${encodeURI(email.trim())}`;

/** OpenStreetMap's search for the address: one click to a map, no script or tiles on our pages. */
export const mapSearchUrl = (address: string): string =>
  `https://www.openstreetmap.org/search?${new URLSearchParams({ query: address.trim() })}`;

/** The address as lines, where it is shown as a block ("12 Orchard Lane", "Millbrook", ...). */
export const addressLines = (address: string): string[] =>
  address
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
