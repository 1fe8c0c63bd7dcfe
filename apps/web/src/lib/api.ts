import 'server-only';
import { Header, type TCategory, type TListPetsQueryInput, type TPet } from '@pets/contract';
import { unstable_cache } from 'next/cache';
import { cache } from 'react';
import { webConfig } from '../env';
import { callApi, fetchOptions, rateLimitedFor, type TCredential } from './api-client';
import { failure, success, type TApiFailure, type TApiResult } from './api-result';
import { Backoff } from './backoff';
import { nextCursorOf, totalCountOf } from './http-headers';
import type { TPetsPage } from './pets-page';
import { currentVisitor, type TVisitor, visitorHeaders } from './visitor';

/**
 * The public catalogue (home, browse, an animal) is read through the site's data cache: an answer
 * serves every visitor for PUBLIC_CACHE_SECONDS (30), then the next visit refreshes it in the
 * background. Staff changes made through the site refresh it at once (PETS_TAG). So a thousand
 * views of a page cost the API a handful of calls, whoever makes them. Categories change rarely:
 * ten times as long.
 */
const publicReadSeconds = () => webConfig().publicCacheSeconds;
const categoriesReadSeconds = () => webConfig().publicCacheSeconds * 10;
/** The data-cache tag of every cached read of animals: updateTag(PETS_TAG) after a staff change. */
export const PETS_TAG = 'pets';
const CATEGORIES_TAG = 'categories';

/**
 * After a 429, no call goes out for that visitor until Retry-After has passed: the API counts the
 * site's key per visitor (FirstPartyHeader), so one visitor's 429 says nothing about another's.
 */
const backoffs = new Map<string, Backoff>();
/** Visitors held at once; past it the oldest hold is forgotten (its next call meets a 429 again). */
const MAX_BACKOFFS = 10_000;

const secondsToWait = (visitor: TVisitor): number => {
  const backoff = backoffs.get(visitor.key);
  const seconds = backoff?.secondsLeft() ?? 0;
  if (backoff && seconds === 0) {
    backoffs.delete(visitor.key);
  }
  return seconds;
};

const holdVisitor = (visitor: TVisitor, seconds: number): void => {
  let backoff = backoffs.get(visitor.key);
  if (!backoff) {
    if (backoffs.size >= MAX_BACKOFFS) {
      const oldest = backoffs.keys().next().value;
      if (oldest !== undefined) {
        backoffs.delete(oldest);
      }
    }
    backoff = new Backoff();
    backoffs.set(visitor.key, backoff);
  }
  backoff.holdFor(seconds);
};

/**
 * The site's own key, on behalf of `visitor`: the visitor is passed in rather than read from the
 * request, since a cached read runs where the request's headers cannot be read.
 */
export const siteCredential = (visitor: TVisitor): TCredential<TApiFailure> => ({
  apiKey: webConfig().apiKey,
  headers: visitorHeaders(visitor),
  logPrefix: '',
  secondsToWait: () => secondsToWait(visitor),
  failureOf: (operation, response) => {
    switch (response.status) {
      case 429: {
        const seconds = rateLimitedFor(response);
        holdVisitor(visitor, seconds);
        console.warn(
          `[web] ${operation}: rate limited; no API calls for this visitor for ${seconds} s.`,
        );
        return { kind: 'rate-limited', retryAfterSeconds: seconds };
      }
      case 401:
        console.error(`[web] ${operation}: the API refused the site's key (WEB_API_KEY).`);
        return { kind: 'unavailable' };
      default:
        return undefined;
    }
  },
});

/** A failed read: thrown out of the data cache so that it is never kept. */
class Uncached extends Error {
  constructor(readonly failure: TApiFailure) {
    super('not cached');
  }
}

/**
 * `load` through the data cache under `keyParts` (shared by every visitor: the key never holds who
 * asked); only successes are kept. A miss is made with the visitor who met it, so the API counts it
 * against that visitor.
 */
const cachedRead = async <T>(
  keyParts: string[],
  options: { seconds: number; tags: string[] },
  load: (visitor: TVisitor) => Promise<TApiResult<T>>,
): Promise<TApiResult<T>> => {
  const visitor = await currentVisitor();
  if (options.seconds === 0) {
    return load(visitor);
  }
  const read = unstable_cache(
    async () => {
      const result = await load(visitor);
      if (!result.ok) {
        throw new Uncached(result.failure);
      }
      return result.data;
    },
    keyParts,
    { revalidate: options.seconds, tags: options.tags },
  );
  try {
    return success(await read());
  } catch (error) {
    if (error instanceof Uncached) {
      return failure(error.failure);
    }
    throw error;
  }
};

/**
 * One page of `listPets`, with the cursor of the next page from the `Link` header and, when asked
 * with `include: 'total_count'`, how many animals match (`X-Total-Count`).
 */
export const listPets = (query: TListPetsQueryInput): Promise<TApiResult<TPetsPage>> =>
  cachedRead(
    ['listPets', JSON.stringify(query)],
    { seconds: publicReadSeconds(), tags: [PETS_TAG] },
    (visitor) => listPetsNow(query, visitor),
  );

const listPetsNow = (
  query: TListPetsQueryInput,
  visitor: TVisitor,
): Promise<TApiResult<TPetsPage>> =>
  callApi(
    'listPets',
    siteCredential(visitor),
    (client) => client.pets.listPets({ query, fetchOptions: fetchOptions() }),
    (response) => {
      if (response.status !== 200) {
        return undefined;
      }
      return {
        pets: response.body,
        nextCursor: nextCursorOf(response.headers.get('link')),
        total: totalCountOf(response.headers.get(Header.totalCount)),
      };
    },
  );

/** Every category, through the data cache. */
export const listCategories = cache(
  (): Promise<TApiResult<TCategory[]>> =>
    cachedRead(
      ['listCategories'],
      { seconds: categoriesReadSeconds(), tags: [CATEGORIES_TAG] },
      (visitor) =>
        callApi(
          'listCategories',
          siteCredential(visitor),
          (client) => client.categories.listCategories({ fetchOptions: fetchOptions() }),
          (response) => (response.status === 200 ? response.body : undefined),
        ),
    ),
);

const findPetNow = (petId: number, visitor: TVisitor): Promise<TApiResult<TPet[]>> =>
  callApi(
    'listPets',
    siteCredential(visitor),
    (client) =>
      client.pets.listPets({ query: { id: String(petId) }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

const petOf = (petId: number, found: TApiResult<TPet[]>): TApiResult<TPet> => {
  if (!found.ok) {
    return found;
  }
  const pet = found.data.find((each) => each.id === petId);
  return pet ? success(pet) : failure({ kind: 'not-found' });
};

/**
 * One animal, through listPets with its `id` filter: the replacement of the deprecated getPet,
 * which the site no longer calls. An empty list means no animal has that id (the page's 404).
 * Through the data cache; memoised per request, so the page and its metadata share one read.
 */
export const findPet = cache(
  async (petId: number): Promise<TApiResult<TPet>> =>
    petOf(
      petId,
      await cachedRead(
        ['findPet', String(petId)],
        { seconds: publicReadSeconds(), tags: [PETS_TAG] },
        (visitor) => findPetNow(petId, visitor),
      ),
    ),
);

/**
 * The same, read from the API now: for the apply form, the step before a visitor asks for the
 * animal, which must not offer an animal that has been spoken for meanwhile (perhaps through
 * another partner of the API). Bounded like any page by the visitor's page limit.
 */
export const findPetFresh = cache(
  async (petId: number): Promise<TApiResult<TPet>> =>
    petOf(petId, await findPetNow(petId, await currentVisitor())),
);
