import type { TListPetsQuery, TPet } from '@pets/contract/schemas';
import { PAGE_SIZE } from '@pets/contract/schemas';
import { failure, success, type TApiResult } from './api-result';
import type { TPosition } from './browse-query';

export type TPetsBatch = { pets: TPet[]; nextCursor?: string };
export type TFetchBatch = (query: Partial<TListPetsQuery>) => Promise<TApiResult<TPetsBatch>>;

export type TPetsPage = {
  pets: TPet[];
  /** Where the next page starts; undefined on the last page. */
  next?: TPosition;
};

/** API pages read while filtering by category: the largest page the API gives. */
export const CATEGORY_SCAN_BATCH = PAGE_SIZE.max;
/** At most this many API pages are read for one page of the site (then it offers "Next"). */
export const CATEGORY_SCAN_MAX_BATCHES = 5;

/**
 * One page of the Browse list.
 *
 * Without a category filter the API pages directly: `limit` animals from the position's cursor, and
 * the next page is the API's `Link: rel="next"` cursor.
 *
 * The API has no category filter, so with one the site reads the API's pages itself (100 at a
 * time, newest first, same status filter) and keeps the animals of that category until it has
 * `limit` of them. Where the next page starts is an API cursor plus how many animals of that API
 * page to skip; an API cursor names a fixed point in the list, so such a position stays valid while
 * animals are added. It reads at most CATEGORY_SCAN_MAX_BATCHES API pages per page of the site; a
 * rare category in a long list may then give a short page with "Next".
 */
export const loadPetsPage = async (
  fetchBatch: TFetchBatch,
  request: {
    status?: TListPetsQuery['status'];
    categoryId?: number;
    limit: number;
    position: TPosition;
  },
): Promise<TApiResult<TPetsPage>> => {
  const { status, categoryId, limit, position } = request;
  if (categoryId === undefined) {
    const batch = await fetchBatch({ limit, status, cursor: position.cursor });
    if (!batch.ok) {
      return batch;
    }
    const { pets, nextCursor } = batch.data;
    return success({
      pets,
      next: nextCursor === undefined ? undefined : { cursor: nextCursor, skip: 0 },
    });
  }

  const pets: TPet[] = [];
  let cursor = position.cursor;
  let skip = position.skip;
  for (let read = 0; read < CATEGORY_SCAN_MAX_BATCHES; read += 1) {
    const batch = await fetchBatch({ limit: CATEGORY_SCAN_BATCH, status, cursor });
    if (!batch.ok) {
      return failure(batch.failure);
    }
    const { pets: candidates, nextCursor } = batch.data;
    for (let index = skip; index < candidates.length; index += 1) {
      const pet = candidates[index];
      if (pet?.categoryId !== categoryId) {
        continue;
      }
      if (pets.length === limit) {
        // One more match exists: the next page starts at it.
        return success({ pets, next: { cursor, skip: index } });
      }
      pets.push(pet);
    }
    if (nextCursor === undefined) {
      return success({ pets, next: undefined });
    }
    cursor = nextCursor;
    skip = 0;
  }
  return success({ pets, next: { cursor, skip: 0 } });
};
