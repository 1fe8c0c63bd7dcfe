import { MAX_ID } from '@pets/contract';
import { invalidRequest } from './app-error';

/**
 * Lists are keyset-paginated, newest first: a page holds ids below the cursor's. The cursor is
 * opaque to clients (base64url of a versioned id) so its format can change without breaking them.
 */
const CURSOR_PATTERN = /^v1:(\d{1,16})$/;

export const encodeCursor = (lastId: bigint): string =>
  Buffer.from(`v1:${lastId}`).toString('base64url');

/** The id a cursor points below, or a 400 naming the cursor. */
export const decodeCursor = (cursor: string): bigint => {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match?.[1] ? BigInt(match[1]) : 0n;
  if (id < 1n || id > BigInt(MAX_ID) || encodeCursor(id) !== cursor) {
    throw invalidRequest(
      'query.cursor',
      'is not a cursor this API issued; take it from the Link header',
    );
  }
  return id;
};

export type TPage<T> = { items: T[]; nextCursor: string | null };

/** Splits the `limit + 1` rows fetched for a page into the page and the cursor of the next one. */
export const toPage = <T extends { id: bigint }>(rows: T[], limit: number): TPage<T> => {
  if (rows.length <= limit) {
    return { items: rows, nextCursor: null };
  }
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: last ? encodeCursor(last.id) : null };
};

/**
 * RFC 8288 `Link` value for the next page: the same path, limit and filters with the new cursor.
 * The reference is root-relative, resolved against the address the request was sent to.
 */
export const nextPageLink = (
  path: string,
  query: Record<string, string | number | undefined>,
  cursor: string,
): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && name !== 'cursor') {
      params.set(name, String(value));
    }
  }
  params.set('cursor', cursor);
  return `<${path}?${params.toString()}>; rel="next"`;
};
