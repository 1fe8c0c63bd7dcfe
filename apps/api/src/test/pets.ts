import { PET_PROFILE_FIELDS, type TPet } from '@pets/contract';
import { expect } from 'vitest';

/**
 * Every profile field unknown, from the contract's list: a field added to Pet needs nothing here
 * (unknown is null, but for the colours: none listed).
 */
const UNKNOWN_PROFILE = {
  ...Object.fromEntries(PET_PROFILE_FIELDS.map((field) => [field, null])),
  colors: [],
};

/**
 * The Pet the API answers for an animal added with only the given fields: its profile unknown
 * (null), no photos, no application in review, any id and any `updatedAt` (RFC 3339, UTC, ms)
 * unless given. Tests name what they set.
 */
export const expectedPet = (
  fields: Pick<TPet, 'name' | 'categoryId' | 'status'> & Partial<TPet>,
): TPet =>
  ({
    id: expect.any(Number),
    ...UNKNOWN_PROFILE,
    photos: [],
    applicationsInReview: 0,
    updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    ...fields,
  }) as TPet;
