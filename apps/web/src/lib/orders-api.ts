import 'server-only';
import { type TNewOrder, type TOrder, type TOrderLinksAccepted, ZError } from '@pets/contract';
import { updateTag } from 'next/cache';
import { PETS_TAG, siteCredential } from './api';
import { callApi, fetchOptions } from './api-client';
import { failure, success, type TApiResult } from './api-result';
import { currentVisitor } from './visitor';

/**
 * The adopter's side of the orders API, with the site's own (partner) key: placing an application
 * and finding it again, with lib/api.ts's credential (and so its per-visitor 429 back-off).
 */

export type TPlaced =
  | { kind: 'placed'; order: TOrder }
  /** `409 pet_not_available`: the animal was set aside or adopted since the form was opened. */
  | { kind: 'taken' }
  /** `409 order_already_open`: this email has an open application for the animal already. */
  | { kind: 'already-open' };

/** How many times a retry that meets the first request still running waits for it. */
const KEY_IN_USE_RETRIES = 3;
const KEY_IN_USE_WAIT_MS = 700;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type TPlaceAttempt = TPlaced | { kind: 'in-use' };

/**
 * Places an order with `Idempotency-Key: idempotencyKey`. The same key (a double submit, a
 * browser retrying the POST) gets the first answer again, so it is one order whatever happens;
 * a retry that arrives while the first is still running waits for it and gets its answer.
 */
export const placeOrder = async (
  body: TNewOrder,
  idempotencyKey: string,
): Promise<TApiResult<TPlaced>> => {
  const visitor = await currentVisitor();
  for (let attempt = 0; ; attempt += 1) {
    const result: TApiResult<TPlaceAttempt> = await callApi(
      'placeOrder',
      siteCredential(visitor),
      (client) =>
        client.orders.placeOrder({
          body,
          headers: { 'idempotency-key': idempotencyKey },
          fetchOptions: fetchOptions(),
        }),
      (response): TPlaceAttempt | undefined => {
        if (response.status === 201) {
          return { kind: 'placed', order: response.body };
        }
        if (response.status === 409) {
          const code = ZError.safeParse(response.body).data?.code;
          if (code === 'pet_not_available') {
            return { kind: 'taken' };
          }
          if (code === 'order_already_open') {
            return { kind: 'already-open' };
          }
          if (code === 'idempotency_key_in_use') {
            return { kind: 'in-use' };
          }
        }
        return undefined;
      },
    );
    if (!result.ok) {
      return result;
    }
    if (result.data.kind !== 'in-use') {
      if (result.data.kind === 'placed') {
        // One more application in review: the public pages show the count at once. (Refused:
        // the form stays with what was typed; the apply page reads the animal afresh anyway.)
        updateTag(PETS_TAG);
      }
      return success(result.data);
    }
    if (attempt >= KEY_IN_USE_RETRIES) {
      return failure({ kind: 'failed' });
    }
    await sleep(KEY_IN_USE_WAIT_MS);
  }
};

/** One order placed with the site's key; `not-found` for any other. */
export const getOrder = async (orderId: number): Promise<TApiResult<TOrder>> =>
  callApi(
    'getOrder',
    siteCredential(await currentVisitor()),
    (client) => client.orders.getOrder({ params: { orderId }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

/**
 * The order a private link from an email names (any key's order: holding the link is the right to
 * read it); `not-found` for a link that is forged, expired or names no order.
 */
export const getOrderByLink = async (token: string): Promise<TApiResult<TOrder>> =>
  callApi(
    'getOrderByLink',
    siteCredential(await currentVisitor()),
    (client) =>
      client.orders.getOrderByLink({ body: { token }, headers: {}, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

/**
 * Confirms the unconfirmed order a private link names (the adopter pressed "Confirm my
 * application"): the confirmed order; `not-found` for a link that is not valid, `conflict` for an
 * order that is not unconfirmed (confirmed already, or cancelled).
 */
export const confirmOrderByLink = async (
  token: string,
): Promise<TApiResult<TOrder | { kind: 'conflict' }>> => {
  const result: TApiResult<TOrder | { kind: 'conflict' }> = await callApi(
    'confirmOrderByLink',
    siteCredential(await currentVisitor()),
    (client) =>
      // No Idempotency-Key: confirming twice changes nothing the second time (a 409).
      client.orders.confirmOrderByLink({
        body: { token },
        headers: {},
        fetchOptions: fetchOptions(),
      }),
    (response) =>
      response.status === 200
        ? response.body
        : response.status === 409
          ? { kind: 'conflict' as const }
          : undefined,
  );
  if (result.ok && !('kind' in result.data)) {
    // One more application in review: the public pages show the count at once.
    updateTag(PETS_TAG);
  }
  return result;
};

/**
 * Asks the API to email `email` the links to its applications. `invalid` for an address the API
 * does not take; otherwise the same answer whether or not the address has applications.
 */
export const sendOrderLinks = async (email: string): Promise<TApiResult<TOrderLinksAccepted>> =>
  callApi(
    'sendOrderLinks',
    siteCredential(await currentVisitor()),
    (client) =>
      // No Idempotency-Key: a second request is a second email, which the limits bound.
      client.orders.sendOrderLinks({ body: { email }, headers: {}, fetchOptions: fetchOptions() }),
    (response) => (response.status === 202 ? response.body : undefined),
  );
