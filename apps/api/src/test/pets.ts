import type { TPet } from '@pets/contract';
import { expect } from 'vitest';

/**
 * The Pet the API answers for an animal added with only the given fields: its profile unknown
 * (null), no photos, any id unless one is given. Tests name what they set; a field added to Pet
 * is added here, once.
 */
export const expectedPet = (
  fields: Pick<TPet, 'name' | 'categoryId' | 'status'> & Partial<TPet>,
): TPet => ({
  id: expect.any(Number),
  description: null,
  sex: null,
  age: null,
  size: null,
  breed: null,
  arrivedAt: null,
  photos: [],
  ...fields,
});
