import { MAX_ID } from '@pets/contract/schemas';
import { browseHref, parseBrowseQuery, toSearchParamsRecord } from './browse-query';
import { matchSearch, parseMatchAnswers } from './match';

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

/**
 * An animal's page opened from "Find your match", remembering the answers (`match`: their query
 * string) so "Back to your matches" returns to the same ranking.
 */
export const matchPetHref = (petId: number, answersSearch: string): string => {
  const match = answersSearch.replace(/^\?/, '');
  return match ? `/pets/${petId}?${new URLSearchParams({ match })}` : `/pets/${petId}`;
};

/**
 * The matches to go back to, or undefined when the animal was not opened from them. Like `from`,
 * `match` is parsed and rebuilt: only known answers survive, and it is always this site's /match.
 */
export const backToMatchesHref = (match: string | string[] | undefined): string | undefined => {
  const value = Array.isArray(match) ? match[0] : match;
  if (value === undefined) {
    return undefined;
  }
  const search = matchSearch(parseMatchAnswers(toSearchParamsRecord(new URLSearchParams(value))));
  // Without `#matches`: Next.js' client-side navigation doubles a fragment here (`#matches#matches`).
  return `/match${search}`;
};

/** A pet id from the address: a positive decimal integer the API can hold, or undefined. */
export const parsePetId = (value: string): number | undefined => {
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    return undefined;
  }
  const id = Number(value);
  return id <= MAX_ID ? id : undefined;
};
