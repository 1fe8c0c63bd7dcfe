/**
 * The RFC 8288 `Link` header of list pages: built by the API, read by the site, the tests and the
 * benchmark, all through these functions.
 */

export type TLink = {
  /** The URI reference between `<` and `>`, as sent (often root-relative). */
  target: string;
  /** The relation types of `rel`, lower-cased (`rel` may list several, separated by spaces). */
  relations: string[];
};

/**
 * Value of `Link` for the next page: the same path, limit and filters with the new cursor (which
 * carries the filters too). A list value (the `id` filter) goes comma-separated. The reference is
 * root-relative, resolved against the address the request was sent to.
 */
export const nextPageLink = (
  path: string,
  query: Record<string, string | number | readonly number[] | undefined>,
  cursor: string,
): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && name !== 'cursor') {
      params.set(name, typeof value === 'object' ? value.join(',') : String(value));
    }
  }
  params.set('cursor', cursor);
  return `<${path}?${params.toString()}>; rel="next"`;
};

// A link-value is `<uri-reference> *( ";" link-param )`; values are separated by commas, which
// may also appear inside the <...> and inside quoted parameter values.
const LINK_VALUE = /<[^>]*>(?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,\s]*))?)*/g;
const TARGET = /^<([^>]*)>/;
const REL_PARAM = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i;

/** Every link of a `Link` header, in order; empty for a missing or unreadable header. */
export const parseLinkHeader = (header: string | null | undefined): TLink[] => {
  if (!header) {
    return [];
  }
  const links: TLink[] = [];
  for (const value of header.match(LINK_VALUE) ?? []) {
    const target = TARGET.exec(value)?.[1];
    if (target === undefined) {
      continue;
    }
    const rel = REL_PARAM.exec(value);
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ target, relations });
  }
  return links;
};

/** The target of the first link with the relation `next`, as sent; undefined when there is none. */
export const nextLinkTarget = (header: string | null | undefined): string | undefined =>
  parseLinkHeader(header).find((link) => link.relations.includes('next'))?.target;

/**
 * The next page's address resolved against `base` (the address the list was fetched from);
 * undefined when there is no next link or its target is not a valid reference.
 */
export const nextLinkOf = (header: string | null | undefined, base: string): URL | undefined => {
  const target = nextLinkTarget(header);
  if (target === undefined) {
    return undefined;
  }
  try {
    return new URL(target, base);
  } catch {
    return undefined;
  }
};

/** The cursor of the next page (the `cursor` parameter of its link), or undefined. */
export const nextCursorOf = (header: string | null | undefined): string | undefined =>
  nextLinkOf(header, 'http://localhost/')?.searchParams.get('cursor') ?? undefined;
