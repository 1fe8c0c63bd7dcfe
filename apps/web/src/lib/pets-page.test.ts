import type { TListPetsQuery, TPet } from '@pets/contract/schemas';
import { describe, expect, it } from 'vitest';
import { failure, success } from './api-result';
import {
  CATEGORY_SCAN_BATCH,
  CATEGORY_SCAN_MAX_BATCHES,
  loadPetsPage,
  type TFetchBatch,
} from './pets-page';

/** An API of `count` animals, newest (highest id) first, categories cycling 1, 2, 3. */
const fakeApi = (count: number, categoryOf = (id: number) => ((id - 1) % 3) + 1) => {
  const pets: TPet[] = Array.from({ length: count }, (_, index) => {
    const id = count - index;
    return { id, name: `Pet ${id}`, categoryId: categoryOf(id), status: 'available' };
  });
  const calls: Partial<TListPetsQuery>[] = [];
  const fetchBatch: TFetchBatch = async (query) => {
    calls.push(query);
    const start = query.cursor === undefined ? 0 : Number(query.cursor);
    const limit = query.limit ?? 20;
    const page = pets.slice(start, start + limit);
    const nextCursor = start + limit < pets.length ? String(start + limit) : undefined;
    return success({ pets: page, nextCursor });
  };
  return { fetchBatch, calls };
};

const ids = (pets: TPet[]) => pets.map((pet) => pet.id);

describe('loadPetsPage without a category', () => {
  it('is one API page, with the API cursor as the next position', async () => {
    const { fetchBatch, calls } = fakeApi(30);
    const page = await loadPetsPage(fetchBatch, { limit: 12, position: { skip: 0 } });
    expect(page.ok && ids(page.data.pets)).toEqual([
      30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19,
    ]);
    expect(page.ok && page.data.next).toEqual({ cursor: '12', skip: 0 });
    expect(calls).toEqual([{ limit: 12, status: undefined, cursor: undefined }]);
  });

  it('passes the status filter and has no next position on the last page', async () => {
    const { fetchBatch, calls } = fakeApi(30);
    const page = await loadPetsPage(fetchBatch, {
      status: 'pending',
      limit: 12,
      position: { cursor: '24', skip: 0 },
    });
    expect(page.ok && ids(page.data.pets)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(page.ok && page.data.next).toBeUndefined();
    expect(calls[0]).toEqual({ limit: 12, status: 'pending', cursor: '24' });
  });
});

describe('loadPetsPage with a category', () => {
  it('keeps the animals of that category and starts the next page at the next match', async () => {
    const { fetchBatch, calls } = fakeApi(30);
    const page = await loadPetsPage(fetchBatch, { categoryId: 3, limit: 4, position: { skip: 0 } });
    // Category 3: ids 30, 27, 24, 21, then 18 (the 13th animal, index 12).
    expect(page.ok && ids(page.data.pets)).toEqual([30, 27, 24, 21]);
    expect(page.ok && page.data.next).toEqual({ cursor: undefined, skip: 12 });
    expect(calls).toEqual([{ limit: CATEGORY_SCAN_BATCH, status: undefined, cursor: undefined }]);

    const second = await loadPetsPage(fetchBatch, {
      categoryId: 3,
      limit: 4,
      position: { skip: 12 },
    });
    expect(second.ok && ids(second.data.pets)).toEqual([18, 15, 12, 9]);
    const third = await loadPetsPage(fetchBatch, {
      categoryId: 3,
      limit: 4,
      position: second.ok && second.data.next ? second.data.next : { skip: 0 },
    });
    expect(third.ok && ids(third.data.pets)).toEqual([6, 3]);
    expect(third.ok && third.data.next).toBeUndefined();
  });

  it('reads further API pages when one is not enough', async () => {
    const { fetchBatch, calls } = fakeApi(250, (id) => (id % 50 === 0 ? 9 : 1));
    const page = await loadPetsPage(fetchBatch, { categoryId: 9, limit: 4, position: { skip: 0 } });
    expect(page.ok && ids(page.data.pets)).toEqual([250, 200, 150, 100]);
    // The fifth match (id 50) is index 100 of the list: API page "200", index 0.
    expect(page.ok && page.data.next).toEqual({ cursor: '200', skip: 0 });
    expect(calls.map((call) => call.cursor)).toEqual([undefined, '100', '200']);
  });

  it('stops after CATEGORY_SCAN_MAX_BATCHES API pages and offers to look further', async () => {
    const size = CATEGORY_SCAN_BATCH * (CATEGORY_SCAN_MAX_BATCHES + 2);
    const { fetchBatch, calls } = fakeApi(size, () => 1);
    const page = await loadPetsPage(fetchBatch, { categoryId: 2, limit: 4, position: { skip: 0 } });
    expect(page.ok && page.data.pets).toEqual([]);
    expect(page.ok && page.data.next).toEqual({
      cursor: String(CATEGORY_SCAN_BATCH * CATEGORY_SCAN_MAX_BATCHES),
      skip: 0,
    });
    expect(calls).toHaveLength(CATEGORY_SCAN_MAX_BATCHES);
  });

  it('passes a failure of the API on', async () => {
    const fetchBatch: TFetchBatch = async () =>
      failure({ kind: 'rate-limited', retryAfterSeconds: 5 });
    expect(
      await loadPetsPage(fetchBatch, { categoryId: 1, limit: 4, position: { skip: 0 } }),
    ).toEqual({ ok: false, failure: { kind: 'rate-limited', retryAfterSeconds: 5 } });
    expect(await loadPetsPage(fetchBatch, { limit: 4, position: { skip: 0 } })).toEqual({
      ok: false,
      failure: { kind: 'rate-limited', retryAfterSeconds: 5 },
    });
  });
});
