import { initContract } from '@ts-rest/core';
import { Header } from '../headers';
import { ZError } from '../schemas/error';
import { ZListPetsQuery, ZNewPet, ZPet, ZPetIdParams, ZPets } from '../schemas/pet';
import type { TRouteMetadata } from './metadata';

const c = initContract();

export const petsRouter = c.router({
  listPets: {
    method: 'GET',
    path: '/pets',
    summary: 'List animals',
    description:
      'Animals, newest first, at most `limit` of them. Filter with `status`. When more animals ' +
      'match, the `Link` header carries a `rel="next"` address with an opaque `cursor`.',
    query: ZListPetsQuery,
    responses: {
      200: ZPets,
      400: ZError,
    },
    metadata: { responseHeaders: { 200: [Header.link] } } satisfies TRouteMetadata,
  },
  createPet: {
    method: 'POST',
    path: '/pets',
    summary: 'Add an animal',
    description:
      'Publishes a new animal. `status` defaults to `available`. The body must be ' +
      '`application/json`, at most 16 KiB.',
    body: ZNewPet,
    responses: {
      201: ZPet,
      400: ZError,
      413: ZError,
      415: ZError,
    },
    metadata: { responseHeaders: { 201: [Header.location] } } satisfies TRouteMetadata,
  },
  getPet: {
    method: 'GET',
    path: '/pets/:petId',
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated: announced for removal on 5 December 2030. Use `GET /v1/pets` with the ' +
      '`status` filter instead. Every response carries `Deprecation`, `Sunset` and a `Link` to ' +
      'the replacement.',
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
});
