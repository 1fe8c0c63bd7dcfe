import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { idField, integerFromText, MAX_ID, ZCursorQuery, ZLimitQuery } from './common';

export const ZPetStatus = extendApi(z.enum(['available', 'pending', 'sold']), {
  description:
    'Availability of the animal: `available` for adoption, `pending` while an adoption is being ' +
    'arranged, `sold` once it has gone to its new home.',
});
export type TPetStatus = z.infer<typeof ZPetStatus>;
export const PetStatus = ZPetStatus.enum;

export const PET_NAME_MAX_LENGTH = 100;

export const ZPetName = z
  .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(PET_NAME_MAX_LENGTH, `must be at most ${PET_NAME_MAX_LENGTH} characters`)
  .describe("The animal's name.");

export const ZNewPet = extendApi(
  z
    .object({
      name: ZPetName,
      categoryId: extendApi(
        z
          .number({ required_error: 'is required', invalid_type_error: 'must be an integer' })
          .int('must be an integer')
          .min(1, 'must be a positive integer')
          .max(MAX_ID, 'must be a safe integer'),
        { format: 'int64', description: 'ID of the category (see `GET /v1/categories`).' },
      ),
      status: ZPetStatus.default('available'),
    })
    .strict(),
  {
    title: 'NewPet',
    example: { name: 'Biscuit', categoryId: 1, status: 'available' },
  },
);
/** What a client sends (status optional). */
export type TNewPetInput = z.input<typeof ZNewPet>;
/** What the server works with after validation (status defaulted). */
export type TNewPet = z.output<typeof ZNewPet>;

export const ZPet = extendApi(
  z.object({
    id: idField('Unique identifier assigned by the service on creation.'),
    name: z.string().describe("The animal's name."),
    categoryId: extendApi(z.number().int(), {
      format: 'int64',
      description: 'ID of the category the animal belongs to.',
    }),
    status: ZPetStatus,
  }),
  {
    title: 'Pet',
    example: { id: 42, name: 'Biscuit', categoryId: 1, status: 'available' },
  },
);
export type TPet = z.infer<typeof ZPet>;

export const ZPets = extendApi(z.array(ZPet), { title: 'Pets' });
export type TPets = z.infer<typeof ZPets>;

export const ZListPetsQuery = z.object({
  limit: ZLimitQuery,
  status: extendApi(ZPetStatus.optional(), {
    description: 'Only animals whose status equals this value. Omit for all animals.',
  }),
  categoryId: extendApi(
    integerFromText(
      z
        .number({ invalid_type_error: 'categoryId must be an integer' })
        .int('categoryId must be an integer')
        .min(1, 'categoryId must be a positive integer')
        .max(MAX_ID, 'categoryId is out of range'),
    ).optional(),
    {
      format: 'int64',
      description:
        'Only animals of this category (see `GET /v1/categories`). An addition to the spec; omit ' +
        'for all categories.',
    },
  ),
  cursor: ZCursorQuery,
});
export type TListPetsQuery = z.infer<typeof ZListPetsQuery>;

export const ZPetIdParams = z.object({
  petId: extendApi(
    integerFromText(
      z
        .number({ invalid_type_error: 'petId must be an integer' })
        .int('petId must be an integer')
        .min(1, 'petId must be a positive integer')
        .max(MAX_ID, 'petId is out of range'),
    ),
    { format: 'int64', description: 'ID of the animal.' },
  ),
});
export type TPetIdParams = z.infer<typeof ZPetIdParams>;
