import { MAX_ID } from './values';

/**
 * Lists are keyset-paginated, newest first: a page holds ids below the cursor's. The cursor is
 * opaque to clients: base64url (no padding) of a versioned text, so its format can change without
 * breaking them.
 *
 * - `v2:<id>:<filter>:<filter>...` (the current format): the id the next page starts below and
 *   the list's filters, each as its text in the list's fixed order (empty when absent), so the
 *   cursor alone continues the same list (`listCursor`). A list's new filters go at the end; a
 *   cursor issued before them has fewer slots and keeps its meaning (they are absent).
 * - `v1:<id>` (issued before): the id alone. Such cursors stay valid and keep their meaning: the
 *   filters sent with them apply, as they did when they were issued (docs/decisions.md).
 *
 * Written with `btoa`/`atob` rather than Node's `Buffer` so the same code runs in the browser
 * bundle; the text is ASCII, which is all `btoa` needs.
 */
const V1_PATTERN = /^v1:(\d{1,16})$/;
const ID_TEXT = /^[1-9]\d{0,15}$/;
const MAX_CURSOR_ID = BigInt(MAX_ID);

const toBase64Url = (text: string): string =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const fromBase64Url = (text: string): string | null => {
  try {
    return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
};

/** A page position as text: a decimal id in 1..MAX_ID without leading zeros, or null. */
const idOfText = (text: string | undefined): bigint | null => {
  if (text === undefined || !ID_TEXT.test(text)) {
    return null;
  }
  const id = BigInt(text);
  return id <= MAX_CURSOR_ID ? id : null;
};

/** A cursor of the first format (`v1:<id>`), which carries no filters. */
export const encodeCursor = (lastId: bigint | number | string): string =>
  toBase64Url(`v1:${lastId}`);

/**
 * The id a cursor of the first format (`v1:<id>`) points below, or null when the text is not one.
 * Only the exact encoding of an id in 1..MAX_ID is accepted (no leading zeros, padding or other
 * alphabet), so every id has one cursor.
 */
export const decodeCursor = (cursor: string): bigint | null => {
  const match = V1_PATTERN.exec(fromBase64Url(cursor) ?? '');
  const id = match?.[1] ? BigInt(match[1]) : 0n;
  return id >= 1n && id <= MAX_CURSOR_ID && encodeCursor(id) === cursor ? id : null;
};

/** Longest cursor of a list whose filters' texts are at most these lengths. */
export const listCursorMaxLength = (filterMaxLengths: readonly number[]): number => {
  const text = filterMaxLengths.reduce((sum, length) => sum + 1 + length, 'v2:'.length + 16);
  return Math.ceil((text * 4) / 3);
};

/**
 * How one filter of a list travels in its cursor: `write` gives its text (never empty, never with
 * a `:`), `read` takes it back, undefined when the text is not one `write` could have given.
 */
export type TCursorFilter<V> = {
  write: (value: V) => string;
  read: (text: string) => V | undefined;
  /**
   * The value that names what leaving the filter out means (`sort=newest`, the default order):
   * written as an empty slot, so a cursor is the same whether it was sent or not, and sent with a
   * cursor of another value, a mismatch like any other.
   */
  absent?: V;
};

export type TCursorFilters<F> = { [K in keyof F]-?: TCursorFilter<NonNullable<F[K]>> };

/** What a request's cursor says, checked against the filters the request sent. */
export type TCursorReading<F> =
  /** Where the page starts and the filters of the list (the cursor's, or those sent with it). */
  | { before: bigint; filters: F }
  /** The request sent a filter the cursor was not issued for; `issued` is the cursor's text. */
  | { mismatch: keyof F & string; issued: string | undefined }
  /** Not a cursor of this list. */
  | null;

export type TListCursor<F> = {
  /** The cursor of the page after the one whose last (smallest) id is `lastId`. */
  encode: (lastId: bigint | number | string, filters: F) => string;
  /**
   * Reads `cursor` with the filters the request sent: a filter left out is the cursor's, a filter
   * sent must be the cursor's (else a mismatch). A cursor of the first format carries none: the
   * filters sent apply.
   */
  read: (cursor: string, sent: F) => TCursorReading<F>;
};

export type TListCursorOptions = {
  /**
   * How many filters the list had before it gained the last ones (new filters go at the end). A
   * cursor issued then has that many slots and stays valid: the filters it lacks are absent, so
   * sending one with it is a mismatch, as for any filter the cursor's list did not have.
   */
  earlierFilterCounts?: readonly number[];
};

/**
 * The cursor of a list whose filters are `filters` (their order is the order in the cursor). A
 * cursor carries every filter of the list it was issued for, so following `Link: rel="next"` and
 * sending `cursor` alone continue the same list, and a cursor sent with other filters is refused.
 */
export const listCursor = <F extends Record<string, unknown>>(
  filters: TCursorFilters<F>,
  options: TListCursorOptions = {},
): TListCursor<F> => {
  const entries = Object.entries(filters) as [keyof F & string, TCursorFilter<unknown>][];
  const count = entries.length;
  const earlierCounts = new Set(
    (options.earlierFilterCounts ?? []).filter((earlier) => earlier >= 1 && earlier < count),
  );
  const encode = (lastId: bigint | number | string, values: F): string => {
    let text = `v2:${lastId}`;
    for (const [name, filter] of entries) {
      const value = values[name];
      text += value === undefined || value === filter.absent ? ':' : `:${filter.write(value)}`;
    }
    return toBase64Url(text);
  };
  const read = (cursor: string, sent: F): TCursorReading<F> => {
    const text = fromBase64Url(cursor);
    if (text === null || toBase64Url(text) !== cursor) {
      return null;
    }
    if (text.startsWith('v1:')) {
      const before = decodeCursor(cursor);
      return before === null ? null : { before, filters: sent };
    }
    const parts = text.split(':');
    const slots = parts.length - 2;
    const before =
      parts[0] === 'v2' && (slots === count || earlierCounts.has(slots))
        ? idOfText(parts[1])
        : null;
    if (before === null) {
      return null;
    }
    const carried = {} as F;
    for (let index = 0; index < count; index++) {
      const [name, filter] = entries[index] as [keyof F & string, TCursorFilter<unknown>];
      const issued = parts[index + 2] || undefined;
      const value = sent[name];
      if (value !== undefined && value === filter.absent) {
        if (issued !== undefined) {
          return { mismatch: name, issued };
        }
      } else if (value !== undefined) {
        if (issued !== filter.write(value)) {
          return { mismatch: name, issued };
        }
        carried[name] = value;
      } else if (issued !== undefined) {
        const read = filter.read(issued);
        // Only the text `write` gives for a value: one cursor per position and filters.
        if (read === undefined || filter.write(read) !== issued) {
          return null;
        }
        carried[name] = read as F[typeof name];
      }
    }
    return { before, filters: carried };
  };
  return { encode, read };
};

/** A page of a keyset list and the cursor of the next one (null on the last page). */
export type TPage<T> = { items: T[]; nextCursor: string | null };

/**
 * Splits the `limit + 1` rows fetched for a page into the page and the cursor of the next one:
 * the extra row only tells that more exist. With `cursor` (the list's `listCursor`), the next
 * cursor carries the list's `filters`; without, it is of the first format.
 */
export const toPage = <T extends { id: bigint | number | string }, F>(
  rows: T[],
  limit: number,
  cursor?: TListCursor<F>,
  filters?: F,
): TPage<T> => {
  if (rows.length <= limit) {
    return { items: rows, nextCursor: null };
  }
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  if (!last) {
    return { items, nextCursor: null };
  }
  return {
    items,
    nextCursor: cursor ? cursor.encode(last.id, filters as F) : encodeCursor(last.id),
  };
};
