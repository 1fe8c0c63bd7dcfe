import { nextPageLink, type TListCursor, type TPage } from '@pets/contract';
import { invalidRequest } from '../core/app-error';

/**
 * Lists are keyset-paginated, newest first: a page holds ids below the cursor's. The cursor's
 * format (it carries the list's filters), the page cut from `limit + 1` rows and the `Link` header
 * are the contract's. The API pages in one place, listPage below: a service hands it the query and
 * the repository's keyset read, and the controller only renders what it returns.
 */

const NOT_OURS = 'is not a cursor this API issued; take it from the Link header';

/** A filter's text in a message: long `id` lists are cut. */
const shown = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}...` : text);

/**
 * Where the page of `cursor` starts and the filters of its list: those it carries, which the
 * request may repeat but not change. A 400 naming the cursor otherwise.
 */
const readListCursor = <F extends Record<string, unknown>>(
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

/** A list query: its filters, the page size and the cursor of the page asked for, if any. */
type TListQuery<F> = F & { limit: number; cursor?: string | undefined };

/** A page as the controller renders it: the `Link` to the next page in place of its cursor. */
export type TListPage<P extends TPage<unknown>> = Omit<P, 'nextCursor'> & { link: string | null };

/**
 * The paging of a list, from the query to the `Link` header: the cursor read (a 400 naming it
 * before any SQL when it is not ours or not this list's; the filters it carries apply), the page
 * fetched after it (`fetch`: the repository's keyset read, which cuts the page), and the link to
 * the next page, repeating the query with the next cursor. A repository's page may carry more
 * (the pets list's total), kept as it is.
 */
export const listPage = async <F extends Record<string, unknown>, P extends TPage<unknown>>(
  list: TListCursor<F>,
  path: string,
  query: TListQuery<F>,
  fetch: (filters: TListQuery<F>, before: bigint | undefined) => Promise<P>,
): Promise<TListPage<P>> => {
  const { before, filters } =
    query.cursor === undefined
      ? { before: undefined, filters: query }
      : readListCursor(list, query.cursor, query);
  const { nextCursor, ...page } = await fetch({ ...filters, limit: query.limit }, before);
  return {
    ...page,
    link: nextCursor
      ? nextPageLink(path, query as Parameters<typeof nextPageLink>[1], nextCursor)
      : null,
  };
};
