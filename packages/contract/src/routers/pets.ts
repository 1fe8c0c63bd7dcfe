import { initContract } from '@ts-rest/core';
import { Header } from '../headers';
import { BODY_LIMIT_TEXT } from '../rules/body-limit';
import { ZError } from '../schemas/error';
import { ZListPetsQuery, ZNewPet, ZPet, ZPetIdParams, ZPets, ZPetUpdate } from '../schemas/pet';
import { idempotent } from './idempotent';
import type { TRouteMetadata } from './metadata';

const c = initContract();

export const petsRouter = c.router({
  listPets: {
    method: 'GET',
    path: '/pets',
    summary: 'List animals',
    description:
      'Animals, newest first, at most `limit` of them. Filter with `status`, `categoryId` and ' +
      '`id` (one id or a comma-separated list: how to fetch animals by id); filters combine. ' +
      'When more animals match, the `Link` header carries a `rel="next"` address with an opaque ' +
      '`cursor`.',
    query: ZListPetsQuery,
    responses: {
      200: ZPets,
      400: ZError,
    },
    metadata: { responseHeaders: { 200: [Header.link] } } satisfies TRouteMetadata,
  },
  createPet: idempotent({
    method: 'POST',
    path: '/pets',
    summary: 'Add an animal',
    description:
      'Publishes a new animal. `status` defaults to `available`. The body must be ' +
      `\`application/json\`, at most ${BODY_LIMIT_TEXT}. Safe to retry with an ` +
      '`Idempotency-Key`.',
    body: ZNewPet,
    responses: {
      201: ZPet,
      400: ZError,
      403: ZError,
      413: ZError,
      415: ZError,
    },
    metadata: {
      responseHeaders: { 201: [Header.location] },
      responseDescriptions: { 403: 'The key is read-only (`forbidden`).' },
    } satisfies TRouteMetadata,
  }),
  getPet: {
    method: 'GET',
    path: '/pets/:petId',
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated: announced for removal on 5 December 2030. Its replacement is `GET /v1/pets` ' +
      'with the `id` filter: `GET /v1/pets?id={petId}` answers `200` with a list of that one ' +
      'animal, or an empty list where this operation answers `404`. Every response carries ' +
      '`Deprecation`, `Sunset` and `Link: </v1/pets?id={petId}>; rel="successor-version"`.',
    deprecated: true,
    pathParams: ZPetIdParams,
    responses: {
      200: ZPet,
      400: ZError,
      404: ZError,
    },
    metadata: {
      deprecated: true,
      responseHeaders: { all: [Header.deprecation, Header.sunset, Header.link] },
    } satisfies TRouteMetadata,
  },
  updatePet: {
    method: 'PATCH',
    path: '/pets/:petId',
    summary: 'Change an animal (staff)',
    description:
      'Changes any of `name`, `categoryId` and `status`; fields left out keep their value. Staff ' +
      'keys only. While the animal has an open adoption order it stays `pending`: another ' +
      '`status` is `409 pet_status_conflict` (cancel or complete the order instead). The body ' +
      `must be \`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    pathParams: ZPetIdParams,
    body: ZPetUpdate,
    responses: {
      200: ZPet,
      400: ZError,
      403: ZError,
      404: ZError,
      409: ZError,
      413: ZError,
      415: ZError,
    },
    metadata: {
      requiredRole: 'staff',
      responseDescriptions: {
        403: 'The key is not a staff key, or is read-only (`forbidden`).',
        409: 'The new `status` contradicts an open adoption order of the animal (`pet_status_conflict`).',
      },
    } satisfies TRouteMetadata,
  },
});
