import { PET_IDS_MAX } from '@pets/contract/rules';

/**
 * Favourites: the animals a visitor has hearted, kept in their own browser (no account, nothing
 * sent until they open or share the list). Pure rules here, shared by the heart, the list page and
 * the shared link: ids are the API's positive integers, newest heart first, at most as many as one
 * `listPets` id filter takes (the contract's PET_IDS_MAX), so a whole list is one API call.
 */

export const FAVOURITES_STORAGE_KEY = 'pets:favourites';
/** Fired on `window` when this tab changes the list, so every heart on the page follows. */
export const FAVOURITES_EVENT = 'pets:favourites-changed';
export const MAX_FAVOURITES = PET_IDS_MAX;

const isPetId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** Distinct ids in their first order, at most MAX_FAVOURITES. */
const distinct = (ids: readonly number[]): number[] => [...new Set(ids)].slice(0, MAX_FAVOURITES);

/** What the browser stored (JSON of ids), read leniently: anything else is an empty list. */
export const readStoredFavourites = (stored: string | null): number[] => {
  if (!stored) {
    return [];
  }
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? distinct(value.filter(isPetId)) : [];
  } catch {
    return [];
  }
};

/** The list with `petId` added (first) or removed. */
export const toggleFavourite = (ids: readonly number[], petId: number): number[] =>
  ids.includes(petId) ? ids.filter((id) => id !== petId) : distinct([petId, ...ids]);

/** `?ids=42,7` of a shared list: its valid ids, in order; unknown text is dropped, not an error. */
export const parseSharedIds = (value: string | string[] | undefined): number[] => {
  const text = Array.isArray(value) ? value[0] : value;
  return distinct(
    (text ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => /^[1-9]\d{0,15}$/.test(part))
      .map(Number)
      .filter(isPetId),
  );
};

/** The page that lists these animals: what "Share this list" copies. */
export const favouritesHref = (ids: readonly number[]): string =>
  ids.length === 0 ? '/favourites' : `/favourites?ids=${distinct(ids).join(',')}`;
