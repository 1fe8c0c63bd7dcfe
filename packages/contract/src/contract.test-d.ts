import { initClient, type ServerInferResponses } from '@ts-rest/core';
import { describe, expectTypeOf, it } from 'vitest';
import { contract } from './contract';
import { PET_UNKNOWN_DETAILS, type TPet } from './schemas/pet';

type TGetPetResponse = ServerInferResponses<typeof contract.pets.getPet>;
type TCreatePetResponse = ServerInferResponses<typeof contract.pets.createPet>;

/**
 * An animal nobody has described yet (the profile fields are present, and null) nor applied for.
 */
const NO_PROFILE = {
  ...PET_UNKNOWN_DETAILS,
  applicationsInReview: 0,
  updatedAt: '2026-11-27T10:00:00.000Z',
  description: null,
  sex: null,
  age: null,
  size: null,
  breed: null,
  arrivedAt: null,
} as const;

describe('the contract at compile time', () => {
  it('accepts responses that keep the contract', () => {
    const found: TGetPetResponse = {
      status: 200,
      body: { id: 1, name: 'Rex', categoryId: 1, status: 'available', ...NO_PROFILE, photos: [] },
    };
    const missing: TGetPetResponse = {
      status: 404,
      body: { code: 'not_found', message: 'No animal has id 1.', status: 404 },
    };
    expectTypeOf(found).toMatchTypeOf<TGetPetResponse>();
    expectTypeOf(missing).toMatchTypeOf<TGetPetResponse>();
  });

  it('rejects responses that break it', () => {
    const wrongStatus: TGetPetResponse = {
      status: 200,
      // @ts-expect-error `adopted` is not a PetStatus.
      body: { id: 1, name: 'Rex', categoryId: 1, status: 'adopted', ...NO_PROFILE, photos: [] },
    };
    const missingId: TGetPetResponse = {
      status: 200,
      // @ts-expect-error a Pet needs its id.
      body: { name: 'Rex', categoryId: 1, status: 'sold', ...NO_PROFILE, photos: [] },
    };
    const missingPhotos: TGetPetResponse = {
      status: 200,
      // @ts-expect-error a Pet always has its photos, [] when none.
      body: { id: 1, name: 'Rex', categoryId: 1, status: 'sold', ...NO_PROFILE, photos: undefined },
    };
    const wrongCode: TGetPetResponse = {
      // @ts-expect-error getPet never answers 201.
      status: 201,
      body: { id: 1, name: 'Rex', categoryId: 1, status: 'sold', ...NO_PROFILE, photos: [] },
    };
    const bareError: TCreatePetResponse = {
      status: 400,
      // @ts-expect-error an error body needs its status field.
      body: { code: 'invalid_request', message: 'no' },
    };
    const unknownCode: TCreatePetResponse = {
      status: 400,
      // @ts-expect-error `teapot` is not an error code.
      body: { code: 'teapot', message: 'no', status: 400 },
    };
    expectTypeOf([
      wrongStatus,
      missingId,
      missingPhotos,
      wrongCode,
      bareError,
      unknownCode,
    ]).toBeArray();
  });

  it('gives a typed client in one line', () => {
    const client = initClient(contract, { baseUrl: 'http://localhost:4000', baseHeaders: {} });
    type TListResult = Awaited<ReturnType<typeof client.pets.listPets>>;
    expectTypeOf<Extract<TListResult, { status: 200 }>['body']>().toEqualTypeOf<TPet[]>();
    expectTypeOf(client.pets.listPets).parameter(0).exclude<undefined>().toHaveProperty('query');
  });
});
