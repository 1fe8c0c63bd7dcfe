/**
 * The site's one rule for a return path: every `next`, every redirect or link target built from
 * what a request carried (a sign-in's `?next=`, the page asked for while signed out, a token put
 * into a path, the edge's "Try again" link) goes through `sameSitePath` before it is used.
 *
 * A browser resolves a redirect's `Location` against the page's URL: `/staff/..//evil.example/x`
 * becomes `//evil.example/x`, another site; `/\evil.example` is `//evil.example` too, and tabs or
 * newlines inside are dropped. So a return path is accepted only when it is already in the normal
 * form a URL parser gives it, on this site: parsed against the site's origin, the origin is the
 * same and the path, query and fragment read back exactly as written. On top of that nothing that
 * only an attacker writes: no `//`, no backslash, no percent-encoded dot, slash or backslash, no
 * control character or space, nothing over 512 characters.
 */

/** A placeholder origin: the value is relative, so any origin of our own compares the same. */
const SITE = 'http://site.invalid';

/** The characters of a path and query as our own links write them (RFC 3986, `%` escapes). */
const URL_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/;

/** Encoded forms of what changes a path's meaning: `.`, `/` and `\`. */
const ENCODED_SEPARATOR = /%(2e|2f|5c)/i;

const MAX_LENGTH = 512;

export type TSameSitePathOptions = {
  /** The path must be this one or under it (`/staff`: `/staff`, `/staff/...`, `/staff?...`). */
  within?: string;
  /** Paths never returned to (a sign-in page: going back to it after signing in is a loop). */
  except?: readonly string[];
};

/**
 * `value` when it is a path of this site in its normal form (and within `options.within`), else
 * undefined. Callers fall back to a page of their own.
 */
export const sameSitePath = (
  value: unknown,
  options: TSameSitePathOptions = {},
): string | undefined => {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) {
    return undefined;
  }
  if (
    !value.startsWith('/') ||
    value.includes('//') ||
    !URL_CHARACTERS.test(value) ||
    ENCODED_SEPARATOR.test(value)
  ) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value, SITE);
  } catch {
    return undefined;
  }
  // The same origin, and the path as the parser normalised it is the path as written: no dot
  // segment, nothing dropped or re-read.
  if (url.origin !== SITE || `${url.pathname}${url.search}${url.hash}` !== value) {
    return undefined;
  }
  const { within, except = [] } = options;
  if (within !== undefined && url.pathname !== within && !url.pathname.startsWith(`${within}/`)) {
    return undefined;
  }
  if (except.some((path) => url.pathname === path || url.pathname.startsWith(`${path}/`))) {
    return undefined;
  }
  return value;
};
