import 'server-only';
import {
  type TCurrentKey,
  type TDeclineOrder,
  type TListOrdersQuery,
  type TListPetsQueryInput,
  type TNewPetInput,
  type TOrder,
  type TOrderAction,
  type TOrderNote,
  type TPet,
  type TPetPhoto,
  type TPetUpdate,
  ZError,
} from '@pets/contract';
import { updateTag } from 'next/cache';
import { PETS_TAG } from './api';
import {
  callApi,
  fetchOptions,
  type TApiClient,
  type TCredential,
  type TRawResponse,
} from './api-client';
import { failure, success, type TApiFailure, type TResult } from './api-result';
import { nextCursorOf } from './http-headers';
import type { TPetsPage } from './pets-page';
import { currentVisitor, vouchedVisitorHeaders } from './visitor';

/**
 * The staff side's calls to the API, each with the signed-in staff member's own key (never the
 * site's): the API then records who approved what, and refuses anything a staff key may not do.
 * The key comes in as an argument from session.ts and goes out only in the Authorization header.
 */

/** An upload sends up to the photo limit and waits while the API makes its sizes. */
const UPLOAD_TIMEOUT_MS = 60_000;

/**
 * Besides the site's failures: the key was refused (401), lacks the right (403), a 409, or the
 * body was refused for its size (413) or its type (415), with the error's code.
 */
export type TStaffFailure =
  | TApiFailure
  | { kind: 'signed-out' }
  | { kind: 'forbidden' }
  | { kind: 'conflict'; code: string }
  | { kind: 'refused'; status: 413 | 415; code: string };
export type TStaffResult<T> = TResult<T, TStaffFailure>;

/** The answers that are about the staff member or what they sent, told to them in words. */
const staffFailureOf = (response: TRawResponse): TStaffFailure | undefined => {
  const error = ZError.safeParse(response.body);
  switch (response.status) {
    case 401:
      return { kind: 'signed-out' };
    case 403:
      return { kind: 'forbidden' };
    case 409:
      return { kind: 'conflict', code: error.success ? error.data.code : 'conflict' };
    case 413:
    case 415:
      return {
        kind: 'refused',
        status: response.status,
        code: error.success ? error.data.code : 'refused',
      };
    case 422:
      return error.success ? { kind: 'invalid', error: error.data } : { kind: 'failed' };
    default:
      return undefined;
  }
};

/**
 * A staff member's own key, with who the visitor is, vouched for by the site's first-party key:
 * a refused staff key then counts against the visitor who typed it, never against the site.
 */
const staffCredential = async (apiKey: string): Promise<TCredential<TStaffFailure>> => ({
  apiKey,
  headers: vouchedVisitorHeaders(await currentVisitor()),
  logPrefix: 'staff ',
  failureOf: (_operation, response) => staffFailureOf(response),
});

const call = async <R extends TRawResponse, T>(
  operation: string,
  apiKey: string,
  request: (client: TApiClient) => Promise<R>,
  onSuccess: (response: R) => T | undefined,
): Promise<TStaffResult<T>> => {
  const result = await callApi(operation, await staffCredential(apiKey), request, onSuccess);
  if (result.ok && CHANGES_THE_CATALOGUE.has(operation)) {
    // The public pages read the catalogue through the data cache: the change shows at once.
    updateTag(PETS_TAG);
  }
  return result;
};

/** Operations after which the public pages' cached animals are out of date. */
const CHANGES_THE_CATALOGUE = new Set([
  'createPet',
  'updatePet',
  'addPetPhoto',
  'deletePetPhoto',
  'reorderPetPhotos',
  'approveOrder',
  'declineOrder',
  'completeOrder',
  'cancelOrder',
]);

/** What the API says about a key: used once, at sign-in, to refuse anything but staff. */
export const describeKey = (apiKey: string): Promise<TStaffResult<TCurrentKey>> =>
  call(
    'getCurrentKey',
    apiKey,
    (client) => client.me.getCurrentKey({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export type TOrdersPage = { orders: TOrder[]; nextCursor?: string };

export const listOrders = (
  apiKey: string,
  query: Partial<Pick<TListOrdersQuery, 'status' | 'petId' | 'q' | 'cursor' | 'limit'>>,
): Promise<TStaffResult<TOrdersPage>> =>
  call(
    'listOrders',
    apiKey,
    (client) => client.orders.listOrders({ query, fetchOptions: fetchOptions() }),
    (response) =>
      response.status === 200
        ? { orders: response.body, nextCursor: nextCursorOf(response.headers.get('link')) }
        : undefined,
  );

export const getOrder = (apiKey: string, orderId: number): Promise<TStaffResult<TOrder>> =>
  call(
    'getOrder',
    apiKey,
    (client) => client.orders.getOrder({ params: { orderId }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

/** An application's private staff notes, oldest first. */
export const listOrderNotes = (
  apiKey: string,
  orderId: number,
): Promise<TStaffResult<TOrderNote[]>> =>
  call(
    'listOrderNotes',
    apiKey,
    (client) => client.orders.listOrderNotes({ params: { orderId }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

/** A new staff note, signed by the API with the staff key's name; one per Idempotency-Key. */
export const addOrderNote = (
  apiKey: string,
  orderId: number,
  text: string,
  idempotencyKey: string,
): Promise<TStaffResult<TOrderNote>> =>
  call(
    'addOrderNote',
    apiKey,
    (client) =>
      client.orders.addOrderNote({
        params: { orderId },
        body: { text },
        headers: { 'idempotency-key': idempotencyKey },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 201 ? response.body : undefined),
  );

/**
 * Emails the adopter a question in the store's name, kept with the notes (kind `question`); one
 * email per Idempotency-Key.
 */
export const askAdopter = (
  apiKey: string,
  orderId: number,
  text: string,
  idempotencyKey: string,
): Promise<TStaffResult<TOrderNote>> =>
  call(
    'askAdopter',
    apiKey,
    (client) =>
      client.orders.askAdopter({
        params: { orderId },
        body: { text },
        headers: { 'idempotency-key': idempotencyKey },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 201 ? response.body : undefined),
  );

/** What any transition answers. */
type TTransitionResponse = Awaited<ReturnType<TApiClient['orders'][`${TOrderAction}Order`]>>;

/**
 * approve / decline / complete / cancel, with an Idempotency-Key so a retried click is one
 * change; `decline` carries the reason and the note.
 */
export const transitionOrder = (
  apiKey: string,
  action: TOrderAction,
  orderId: number,
  idempotencyKey: string,
  decline?: TDeclineOrder,
): Promise<TStaffResult<TOrder>> => {
  const args = {
    params: { orderId },
    body: undefined,
    headers: { 'idempotency-key': idempotencyKey },
    fetchOptions: fetchOptions(),
  };
  const operations: Record<TOrderAction, (client: TApiClient) => Promise<TTransitionResponse>> = {
    approve: (client) => client.orders.approveOrder(args),
    decline: (client) =>
      client.orders.declineOrder({ ...args, body: decline ?? { reason: 'other' } }),
    complete: (client) => client.orders.completeOrder(args),
    cancel: (client) => client.orders.cancelOrder(args),
  };
  return call(`${action}Order`, apiKey, operations[action], (response) =>
    response.status === 200 ? response.body : undefined,
  );
};

/** One animal by id (listPets' id filter, as the public pages do), with the staff key. */
export const findPetAsStaff = async (
  apiKey: string,
  petId: number,
): Promise<TStaffResult<TPet>> => {
  const found = await call(
    'listPets',
    apiKey,
    (client) =>
      client.pets.listPets({
        query: { id: String(petId) },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body : undefined),
  );
  if (!found.ok) {
    return found;
  }
  const pet = found.data.find((each) => each.id === petId);
  return pet ? success(pet) : failure({ kind: 'not-found' });
};

export const createPetAsStaff = (apiKey: string, body: TNewPetInput): Promise<TStaffResult<TPet>> =>
  call(
    'createPet',
    apiKey,
    (client) => client.pets.createPet({ body, fetchOptions: fetchOptions() }),
    (response) => (response.status === 201 ? response.body : undefined),
  );

export const updatePet = (
  apiKey: string,
  petId: number,
  body: TPetUpdate,
): Promise<TStaffResult<TPet>> =>
  call(
    'updatePet',
    apiKey,
    (client) => client.pets.updatePet({ params: { petId }, body, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

/** A page of animals (any listPets query: the animals list, or the animals of a page of orders). */
export const listPetsAsStaff = (
  apiKey: string,
  query: TListPetsQueryInput,
): Promise<TStaffResult<TPetsPage>> =>
  call(
    'listPets',
    apiKey,
    (client) => client.pets.listPets({ query, fetchOptions: fetchOptions() }),
    (response) =>
      response.status === 200
        ? { pets: response.body, nextCursor: nextCursorOf(response.headers.get('link')) }
        : undefined,
  );

/**
 * Adds a photo: the file the staff member chose goes to the API as a `multipart/form-data` form
 * from here, the site's server, with their key; the browser never sees the key. The token of the
 * page that showed the form is the `Idempotency-Key`, so a form sent twice adds one photo.
 */
export const addPetPhotoAsStaff = (
  apiKey: string,
  petId: number,
  photo: Blob,
  idempotencyKey: string,
): Promise<TStaffResult<TPetPhoto>> =>
  call(
    'addPetPhoto',
    apiKey,
    (client) =>
      client.pets.addPetPhoto({
        params: { petId },
        // ts-rest's client sends only a `File` as a file part (a bare `Blob` would go as JSON).
        body: {
          photo: photo instanceof File ? photo : new File([photo], 'photo', { type: photo.type }),
        },
        headers: { 'idempotency-key': idempotencyKey },
        fetchOptions: fetchOptions(UPLOAD_TIMEOUT_MS),
      }),
    (response) => (response.status === 201 ? response.body : undefined),
  );

export const deletePetPhotoAsStaff = (
  apiKey: string,
  petId: number,
  photoId: number,
): Promise<TStaffResult<true>> =>
  call(
    'deletePetPhoto',
    apiKey,
    (client) =>
      client.pets.deletePetPhoto({
        params: { petId, photoId },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 204 ? true : undefined),
  );

/** Every photo of the animal, in the new order: a stale order is a 409 the caller explains. */
export const reorderPetPhotosAsStaff = (
  apiKey: string,
  petId: number,
  photoIds: number[],
): Promise<TStaffResult<TPetPhoto[]>> =>
  call(
    'reorderPetPhotos',
    apiKey,
    (client) =>
      client.pets.reorderPetPhotos({
        params: { petId },
        body: { photoIds },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

/** A staff failure as a page shows it (the public ApiFailure panel). */
export const asPageFailure = (staffFailure: TStaffFailure): TApiFailure => {
  switch (staffFailure.kind) {
    case 'signed-out':
    case 'forbidden':
    case 'conflict':
    case 'refused':
    case 'invalid':
      return { kind: 'failed' };
    default:
      return staffFailure;
  }
};
