import { MAX_ID } from '@pets/contract/schemas';
import { browseHref, parseBrowseQuery, toSearchParamsRecord } from './browse-query';

/**
 * An animal's page, remembering the list it was opened from (`from`: that list's query string) so
 * "Back to the list" returns to the same filters and page.
 */
export const petHref = (petId: number, fromSearch = ''): string => {
  const from = fromSearch.replace(/^\?/, '');
  return from ? `/pets/${petId}?${new URLSearchParams({ from })}` : `/pets/${petId}`;
};

/**
 * The list to go back to. `from` comes from the address bar, so it is parsed as a Browse query and
 * rebuilt: only known parameters survive and the result is always a path of this site.
 */
export const backToListHref = (from: string | string[] | undefined): string => {
  const value = Array.isArray(from) ? from[0] : from;
  if (!value) {
    return '/';
  }
  return browseHref(parseBrowseQuery(toSearchParamsRecord(new URLSearchParams(value))));
};

/** A pet id from the address: a positive decimal integer the API can hold, or undefined. */
export const parsePetId = (value: string): number | undefined => {
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    return undefined;
  }
  const id = Number(value);
  return id <= MAX_ID ? id : undefined;
};
