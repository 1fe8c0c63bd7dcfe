import 'server-only';
import {
  contract,
  Header,
  type TCategory,
  type TListPetsQueryInput,
  type TPet,
  ZError,
} from '@pets/contract';
import { initClient } from '@ts-rest/core';
import { cache } from 'react';
import { webConfig } from '../env';
import { failure, success, type TApiFailure, type TApiResult } from './api-result';
import { Backoff } from './backoff';
import { nextCursorOf, retryAfterSeconds, totalCountOf } from './http-headers';
import type { TPetsPage } from './pets-page';

/** How long one call to the API may take before the page shows the "unavailable" state. */
const REQUEST_TIMEOUT_MS = 8_000;
/** Categories change rarely: one process keeps them this long, to spare the site's rate limit. */
const CATEGORIES_TTL_MS = 60_000;

type TClient = ReturnType<typeof createClient>;
type TRawResponse = { status: number; body: unknown; headers: Headers };

const createClient = () => {
  const { apiBaseUrl, apiKey } = webConfig();
  return initClient(contract, {
    baseUrl: apiBaseUrl,
    baseHeaders: { authorization: `Bearer ${apiKey}` },
    // Every answer is checked against the contract's schemas before a page uses it.
    validateResponse: true,
    throwOnUnknownStatus: true,
  });
};

let client: TClient | undefined;
const api = (): TClient => {
  client ??= createClient();
  return client;
};

const fetchOptions = () => ({
  cache: 'no-store' as const,
  signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
});

/** After a 429, no call goes out until Retry-After has passed (one key for every visitor). */
const backoff = new Backoff();

/** Turns a non-success answer of the API into what the page should show. */
const failureOf = (operation: string, response: TRawResponse): TApiFailure => {
  switch (response.status) {
    case 429: {
      const seconds = retryAfterSeconds(response.headers.get('retry-after'));
      backoff.holdFor(seconds);
      console.warn(`[web] ${operation}: rate limited; no API calls for ${seconds} s.`);
      return { kind: 'rate-limited', retryAfterSeconds: seconds };
    }
    case 404:
      return { kind: 'not-found' };
    case 400: {
      const parsed = ZError.safeParse(response.body);
      return parsed.success ? { kind: 'invalid', error: parsed.data } : { kind: 'failed' };
    }
    case 401:
      console.error(`[web] ${operation}: the API refused the site's key (WEB_API_KEY).`);
      return { kind: 'unavailable' };
    case 503:
      return { kind: 'unavailable' };
    default:
      console.error(`[web] ${operation}: the API answered ${response.status}.`);
      return { kind: 'failed' };
  }
};

/** Runs one call; network errors, time-outs and contract violations become failures too. */
const call = async <R extends TRawResponse, T>(
  operation: string,
  request: () => Promise<R>,
  onSuccess: (response: R) => T | undefined,
): Promise<TApiResult<T>> => {
  const wait = backoff.secondsLeft();
  if (wait > 0) {
    return failure({ kind: 'rate-limited', retryAfterSeconds: wait });
  }
  let response: R;
  try {
    response = await request();
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    if (name === 'TypeError' || name === 'TimeoutError' || name === 'AbortError') {
      console.warn(`[web] ${operation}: the API is unreachable (${name}).`);
      return failure({ kind: 'unavailable' });
    }
    console.error(`[web] ${operation}: unexpected answer from the API (${name}).`);
    return failure({ kind: 'failed' });
  }
  const data = onSuccess(response);
  return data === undefined ? failure(failureOf(operation, response)) : success(data);
};

/**
 * One page of `listPets`, with the cursor of the next page from the `Link` header and, when asked
 * with `include: 'total_count'`, how many animals match (`X-Total-Count`).
 */
export const listPets = (query: TListPetsQueryInput): Promise<TApiResult<TPetsPage>> =>
  call(
    'listPets',
    () => api().pets.listPets({ query, fetchOptions: fetchOptions() }),
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

let categoriesCache: { categories: TCategory[]; expiresAt: number } | undefined;

/** Every category, kept for a minute in this process. */
export const listCategories = cache(async (): Promise<TApiResult<TCategory[]>> => {
  if (categoriesCache && categoriesCache.expiresAt > Date.now()) {
    return success(categoriesCache.categories);
  }
  const result = await call(
    'listCategories',
    () => api().categories.listCategories({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );
  if (result.ok) {
    categoriesCache = { categories: result.data, expiresAt: Date.now() + CATEGORIES_TTL_MS };
  }
  return result;
});

/**
 * One animal, through listPets with its `id` filter: the replacement of the deprecated getPet,
 * which the site no longer calls. An empty list means no animal has that id (the page's 404).
 * Memoised per request, so the page and its metadata share one call.
 */
export const findPet = cache(async (petId: number): Promise<TApiResult<TPet>> => {
  const found = await call(
    'listPets',
    () => api().pets.listPets({ query: { id: String(petId) }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );
  if (!found.ok) {
    return found;
  }
  const pet = found.data.find((each) => each.id === petId);
  return pet ? success(pet) : failure({ kind: 'not-found' });
});

/** For lib/orders-api.ts: the same client, time-out, back-off and failure mapping. */
export { api as siteApi, call as callApi, fetchOptions };
