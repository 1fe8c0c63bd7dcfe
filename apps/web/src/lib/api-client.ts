import 'server-only';
import { contract, ZError } from '@pets/contract';
import { siteContract } from '@pets/contract/site';
import { initClient } from '@ts-rest/core';
import { webConfig } from '../env';
import type { TApiFailure, TResult } from './api-result';
import { retryAfterSeconds } from './http-headers';

/**
 * The one way the site calls the API. The site's own calls (lib/api.ts, lib/orders-api.ts) and
 * a staff member's (lib/staff-api.ts) differ only in their credential: the key sent, the
 * first-party headers that say who the visitor is, and how a few answers are read.
 */

/** How long one call to the API may take before the page shows the "unavailable" state. */
const REQUEST_TIMEOUT_MS = 8_000;

export type TRawResponse = { status: number; body: unknown; headers: Headers };

export type TCredential<F> = {
  /** Sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Who the visitor is (FirstPartyHeader), on every call. */
  headers: Record<string, string>;
  /** Names the caller in the logs: "" for the site's own key, "staff " for a staff member's. */
  logPrefix: string;
  /** Seconds before a call may go out again (after a 429); nothing is sent meanwhile. */
  secondsToWait?: () => number;
  /** The answers this credential reads its own way (a refused key...); undefined: the usual way. */
  failureOf?: (operation: string, response: TRawResponse) => F | undefined;
};

export const fetchOptions = (timeoutMs = REQUEST_TIMEOUT_MS) => ({
  cache: 'no-store' as const,
  signal: AbortSignal.timeout(timeoutMs),
});

const clientOptions = <F>(credential: TCredential<F>) => ({
  baseUrl: webConfig().apiBaseUrl,
  baseHeaders: { authorization: `Bearer ${credential.apiKey}`, ...credential.headers },
  // Every answer is checked against the contract's schemas before a page uses it.
  validateResponse: true,
  throwOnUnknownStatus: true,
});
const clientFor = <F>(credential: TCredential<F>) =>
  initClient(contract, clientOptions(credential));
export type TApiClient = ReturnType<typeof clientFor>;
/** The site-only contract (/internal): people's sign-in, sessions, accounts and the team. */
const siteClientFor = <F>(credential: TCredential<F>) =>
  initClient(siteContract, clientOptions(credential));
export type TSiteClient = ReturnType<typeof siteClientFor>;

/** A 429's wait, in seconds, from its Retry-After. */
export const rateLimitedFor = (response: TRawResponse): number =>
  retryAfterSeconds(response.headers.get('retry-after'));

/** Turns a non-success answer of the API into what the page should show. */
const failureOf = <F>(
  operation: string,
  response: TRawResponse,
  credential: TCredential<F>,
): F | TApiFailure => {
  const own = credential.failureOf?.(operation, response);
  if (own) {
    return own;
  }
  switch (response.status) {
    case 400: {
      const parsed = ZError.safeParse(response.body);
      return parsed.success ? { kind: 'invalid', error: parsed.data } : { kind: 'failed' };
    }
    case 404:
      return { kind: 'not-found' };
    case 429:
      return { kind: 'rate-limited', retryAfterSeconds: rateLimitedFor(response) };
    case 503:
      return { kind: 'unavailable' };
    default:
      // The status only: a body could echo what was sent.
      console.error(
        `[web] ${credential.logPrefix}${operation}: the API answered ${response.status}.`,
      );
      return { kind: 'failed' };
  }
};

/**
 * Runs one call with `credential`; network errors, time-outs and contract violations become
 * failures too. `onSuccess` picks the data out of the answers that are a success for this call.
 */
export const callApi = <R extends TRawResponse, T, F>(
  operation: string,
  credential: TCredential<F>,
  request: (client: TApiClient) => Promise<R>,
  onSuccess: (response: R) => T | undefined,
): Promise<TResult<T, F | TApiFailure>> =>
  run(operation, credential, () => request(clientFor(credential)), onSuccess);

/** callApi for the site-only contract (lib/site-api.ts). */
export const callSiteApi = <R extends TRawResponse, T, F>(
  operation: string,
  credential: TCredential<F>,
  request: (client: TSiteClient) => Promise<R>,
  onSuccess: (response: R) => T | undefined,
): Promise<TResult<T, F | TApiFailure>> =>
  run(operation, credential, () => request(siteClientFor(credential)), onSuccess);

const run = async <R extends TRawResponse, T, F>(
  operation: string,
  credential: TCredential<F>,
  send: () => Promise<R>,
  onSuccess: (response: R) => T | undefined,
): Promise<TResult<T, F | TApiFailure>> => {
  const wait = credential.secondsToWait?.() ?? 0;
  if (wait > 0) {
    return { ok: false, failure: { kind: 'rate-limited', retryAfterSeconds: wait } };
  }
  let response: R;
  try {
    response = await send();
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    if (name === 'TypeError' || name === 'TimeoutError' || name === 'AbortError') {
      console.warn(`[web] ${credential.logPrefix}${operation}: the API is unreachable (${name}).`);
      return { ok: false, failure: { kind: 'unavailable' } };
    }
    console.error(
      `[web] ${credential.logPrefix}${operation}: unexpected answer from the API (${name}).`,
    );
    return { ok: false, failure: { kind: 'failed' } };
  }
  const data = onSuccess(response);
  return data === undefined
    ? { ok: false, failure: failureOf(operation, response, credential) }
    : { ok: true, data };
};
