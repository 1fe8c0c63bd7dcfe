/**
 * What the edge decides from a request's path, decided on the path Next.js will serve, never on
 * its spelling. Node hands the edge the request target as the client wrote it; Next.js parses it
 * as a URL, which removes dot segments (`/_next/../how-adoption-works` is the page
 * `/how-adoption-works`), reads `%2e` as a dot there, and takes `\` for `/`. A check of the raw
 * text ("starts with /_next/") is skipped by spelling the path.
 */

/** Any placeholder origin: only the path of the parse is read. */
const BASE = 'http://edge.invalid';

/** The path part of a request target (no query; a fragment is never sent, but cut it too). */
const pathPartOf = (target: string): string => {
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
};

/**
 * A spelling the edge refuses before routing (400): a dot segment (`.` or `..`, between `/` or
 * `\`), a percent-encoded dot anywhere in the path (`%2e`, `%2E`: no link of ours encodes one),
 * or a target that is not a path (the absolute form, `*`). None of them is how a browser asks for
 * a page of ours; each is how one asks for another path than it seems to.
 */
export const isRefusedSpelling = (target: string): boolean => {
  const path = pathPartOf(target);
  if (!path.startsWith('/')) {
    return true;
  }
  if (/%2e/i.test(path)) {
    return true;
  }
  return path.split(/[/\\]/).some((segment) => segment === '.' || segment === '..');
};

/**
 * The path Next.js serves for a request target: the WHATWG URL parser's normal form, with the
 * target read as a path under the origin (so `//host/x` stays the path `//host/x`, which Next.js
 * redirects, and never becomes another host's `/x`).
 */
export const servedPathOf = (target: string): string => {
  try {
    return new URL(`${BASE}${pathPartOf(target)}`).pathname;
  } catch {
    return pathPartOf(target);
  }
};
