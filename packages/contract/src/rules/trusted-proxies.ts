/**
 * TRUSTED_PROXIES: which hops in front of a server may tell it the client's address and protocol
 * (`X-Forwarded-For`, `X-Forwarded-Proto`, `X-Forwarded-Host`). One rule read by the API (Fastify's
 * `trustProxy`) and by the site's edge (proxy-addr, the library Fastify uses), so the two decide a
 * visitor's address the same way:
 * - unset, empty or `none` (the default): nobody; the socket's peer is the client;
 * - a whole number N from 1 to 10: the N hops nearest the server (a fixed chain of proxies);
 * - a comma-separated list of addresses, CIDR ranges and the names `loopback`, `linklocal` and
 *   `uniquelocal`: hops from those addresses.
 */
export type TTrustedProxies = false | number | string[];

export const TRUSTED_PROXIES_MAX_HOPS = 10;

/** proxy-addr's names for address ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const ipVersion = (value: string): 4 | 6 | 0 => {
  if (IPV4.test(value)) {
    return 4;
  }
  if (!value.includes(':') || !/^[0-9a-f:.]+$/i.test(value)) {
    return 0;
  }
  try {
    // The URL parser validates IPv6 literals the same way in Node and in browsers.
    new URL(`http://[${value}]/`);
    return 6;
  } catch {
    return 0;
  }
};

const isAddressOrRange = (value: string): boolean => {
  const [address = '', bits, ...rest] = value.split('/');
  const version = ipVersion(address);
  if (version === 0 || rest.length > 0) {
    return false;
  }
  if (bits === undefined) {
    return true;
  }
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
};

export const TRUSTED_PROXIES_HELP =
  'must be none, a number of hops from 1 to 10, or addresses, CIDR ranges and loopback/linklocal/uniquelocal separated by commas';

/** Parses the setting; a string is the reason it is refused (for a one-line configuration error). */
export const parseTrustedProxies = (
  value: string | undefined,
): { ok: true; value: TTrustedProxies } | { ok: false; error: string } => {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'none') {
    return { ok: true, value: false };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= TRUSTED_PROXIES_MAX_HOPS
      ? { ok: true, value: hops }
      : { ok: false, error: `${TRUSTED_PROXIES_HELP} (not "${value}")` };
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !RANGE_NAMES.has(entry) && !isAddressOrRange(entry));
  if (bad !== undefined || entries.length === 0) {
    return { ok: false, error: `${TRUSTED_PROXIES_HELP} (not "${bad ?? value}")` };
  }
  return { ok: true, value: entries };
};
