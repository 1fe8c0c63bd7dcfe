import type { TError } from '@pets/contract/schemas';

/**
 * What can go wrong when the site calls the API, in the terms a page needs to pick what to show.
 * Never carries a stack trace or a raw response: only what a person may be told.
 */
export type TApiFailure =
  /** 429: too many requests for the site's key; try again after that many seconds. */
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  /** The API could not be reached, timed out, is down (503) or refused the site's key (401). */
  | { kind: 'unavailable' }
  /** 404. */
  | { kind: 'not-found' }
  /** 400: the request was invalid; the error body says which fields. */
  | { kind: 'invalid'; error: TError }
  /** Anything else: a 5xx or an answer that breaks the contract. */
  | { kind: 'failed' };

/** A call's data, or what went wrong in the caller's terms (the site's, or a staff member's). */
export type TResult<T, F> = { ok: true; data: T } | { ok: false; failure: F };
export type TApiResult<T> = TResult<T, TApiFailure>;

export const success = <T>(data: T): TApiResult<T> => ({ ok: true, data });
export const failure = <T>(apiFailure: TApiFailure): TApiResult<T> => ({
  ok: false,
  failure: apiFailure,
});
