import type { TListCursor } from '@pets/contract';
import { invalidRequest } from '../core/app-error';

/**
 * Lists are keyset-paginated, newest first: a page holds ids below the cursor's. The cursor's
 * format (it carries the list's filters), the page cut from `limit + 1` rows and the `Link` header
 * are the contract's; this file adds what only the API does: refuse a bad cursor with the API's
 * 400.
 */

const NOT_OURS = 'is not a cursor this API issued; take it from the Link header';

/** A filter's text in a message: long `id` lists are cut. */
const shown = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}...` : text);

/**
 * Where the page of `cursor` starts and the filters of its list: those it carries, which the
 * request may repeat but not change. A 400 naming the cursor otherwise.
 */
export const readListCursor = <F extends Record<string, unknown>>(
  list: TListCursor<F>,
  cursor: string,
  sent: F,
): { before: bigint; filters: F } => {
  const reading = list.read(cursor, sent);
  if (reading === null) {
    throw invalidRequest('query.cursor', NOT_OURS);
  }
  if ('mismatch' in reading) {
    const { mismatch: name, issued } = reading;
    throw invalidRequest(
      'query.cursor',
      issued === undefined
        ? `belongs to a list without ${name}: send it without ${name}, or leave the cursor ` +
            'out to start a new list'
        : `belongs to the list with ${name}=${shown(issued)}: send it with that ${name} or ` +
            `without ${name} (the cursor keeps its list's filters), or leave the cursor out to ` +
            'start a new list',
    );
  }
  return reading;
};
