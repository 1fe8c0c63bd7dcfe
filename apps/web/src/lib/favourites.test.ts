import { describe, expect, it } from 'vitest';
import {
  favouritesHref,
  MAX_FAVOURITES,
  parseSharedIds,
  readStoredFavourites,
  toggleFavourite,
} from './favourites';

describe('favourites', () => {
  it('reads what the browser stored, leniently', () => {
    expect(readStoredFavourites('[3,1,3,"7",-2,1.5]')).toEqual([3, 1]);
    expect(readStoredFavourites('{"a":1}')).toEqual([]);
    expect(readStoredFavourites('not json')).toEqual([]);
    expect(readStoredFavourites(null)).toEqual([]);
  });

  it('puts a new heart first and removes a second tap', () => {
    expect(toggleFavourite([1, 2], 3)).toEqual([3, 1, 2]);
    expect(toggleFavourite([3, 1, 2], 1)).toEqual([3, 2]);
  });

  it('keeps at most one listPets id filter of animals', () => {
    const many = Array.from({ length: MAX_FAVOURITES }, (_, index) => index + 1);
    const more = toggleFavourite(many, 5000);
    expect(more).toHaveLength(MAX_FAVOURITES);
    expect(more[0]).toBe(5000);
  });

  it('reads a shared link and writes one back', () => {
    expect(parseSharedIds('42, 7,x,0,42,-1,99999999999999999999')).toEqual([42, 7]);
    expect(parseSharedIds(['5,6', '7'])).toEqual([5, 6]);
    expect(parseSharedIds(undefined)).toEqual([]);
    expect(favouritesHref([42, 7])).toBe('/favourites?ids=42,7');
    expect(favouritesHref([])).toBe('/favourites');
  });
});
