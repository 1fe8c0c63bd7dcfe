import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { listCursor, listCursorMaxLength } from '../rules/cursor';
import {
  idField,
  idFromText,
  integerFromText,
  MAX_ID,
  PAGE_SIZE,
  storableText,
  ZLimitQuery,
  zId,
} from './common';

export const ZPetStatus = extendApi(z.enum(['available', 'pending', 'sold']), {
  description:
    'Availability of the animal: `available` for adoption, `pending` while an adoption is being ' +
    'arranged, `sold` once it has gone to its new home.',
});
export type TPetStatus = z.infer<typeof ZPetStatus>;
export const PetStatus = ZPetStatus.enum;

export const PET_NAME_MAX_LENGTH = 100;

export const ZPetName = storableText(
  z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(PET_NAME_MAX_LENGTH, `must be at most ${PET_NAME_MAX_LENGTH} characters`),
).describe("The animal's name.");

export const ZNewPet = extendApi(
  z
    .object({
      name: ZPetName,
      categoryId: idField('ID of the category (see `GET /v1/categories`).', {
        required: 'is required',
        notInteger: 'must be an integer',
        notPositive: 'must be a positive integer',
        outOfRange: 'must be a safe integer',
      }),
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

/**
 * The body of updatePet (staff keys): any of `name`, `categoryId` and `status`; a field left out
 * keeps its value. No defaults here: an update never changes what it does not name.
 */
export const ZPetUpdate = extendApi(
  z
    .object({
      name: ZPetName.optional(),
      categoryId: idField('ID of the category (see `GET /v1/categories`).', {
        notInteger: 'must be an integer',
        notPositive: 'must be a positive integer',
        outOfRange: 'must be a safe integer',
      }).optional(),
      status: ZPetStatus.optional(),
    })
    .strict(),
  {
    title: 'PetUpdate',
    example: { name: 'Biscuit', status: 'available' },
  },
);
export type TPetUpdate = z.infer<typeof ZPetUpdate>;

export const ZPet = extendApi(
  z.object({
    id: idField('Unique identifier assigned by the service on creation.'),
    name: z.string().max(100).describe("The animal's name."),
    categoryId: idField('ID of the category the animal belongs to.'),
    status: ZPetStatus,
  }),
  {
    title: 'Pet',
    example: { id: 42, name: 'Biscuit', categoryId: 1, status: 'available' },
  },
);
export type TPet = z.infer<typeof ZPet>;

export const ZPets = extendApi(z.array(ZPet).max(PAGE_SIZE.max), { title: 'Pets' });
export type TPets = z.infer<typeof ZPets>;

/** Most ids one `listPets` request may name in its `id` filter. */
export const PET_IDS_MAX = 100;
/** Longest `id` filter text: PET_IDS_MAX ids of MAX_ID's digits, separated by commas. */
export const PET_IDS_MAX_LENGTH = PET_IDS_MAX * (String(MAX_ID).length + 1) - 1;

/** One id of the `id` filter; its messages follow the id's text in the filter's message. */
const ZPetIdsElement = integerFromText(
  zId({
    notInteger: 'is not an integer',
    notPositive: 'is not a positive integer',
    outOfRange: 'is out of range',
  }),
);

const ID_FILTER_SHAPE = `id must be one id or up to ${PET_IDS_MAX} ids separated by commas`;
/** An element of the filter as a message shows it: quoted, and cut when long. */
const shownElement = (text: string): string =>
  JSON.stringify(text.length > 20 ? `${text.slice(0, 20)}...` : text);

/**
 * The `id` filter of listPets: the text `42` or `42,7,19`, read into its distinct ids, largest
 * (newest) first. Every failure is one issue on `id` itself, whose message names the bad element.
 */
export const ZPetIdsQuery = extendApi(
  z
    .string({ invalid_type_error: `${ID_FILTER_SHAPE}, sent once` })
    .min(1, 'id must not be empty')
    .max(PET_IDS_MAX_LENGTH, `id is too long: ${ID_FILTER_SHAPE}`)
    .transform((text, context): number[] => {
      const parts = text.split(',');
      if (parts.length > PET_IDS_MAX) {
        context.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${ID_FILTER_SHAPE}; got ${parts.length}`,
        });
        return z.NEVER;
      }
      const ids = new Set<number>();
      for (const part of parts) {
        const id = ZPetIdsElement.safeParse(part);
        if (!id.success) {
          context.addIssue({
            code: z.ZodIssueCode.custom,
            message: `${ID_FILTER_SHAPE}; ${shownElement(part)} ${id.error.issues[0]?.message}`,
          });
          return z.NEVER;
        }
        ids.add(id.data);
      }
      return [...ids].sort((a, b) => b - a);
    }),
  {
    description:
      `Only the animals with these ids: one id, or up to ${PET_IDS_MAX} ids separated by commas ` +
      '(`42` or `42,7,19`). Ids that name no animal are left out, so an unknown id gives an ' +
      'empty list, not an error. Combines with the other filters. The replacement of the ' +
      'deprecated `GET /pets/{petId}`. An addition to the spec; omit for all animals.',
    pattern: `^[0-9]+(,[0-9]+){0,${PET_IDS_MAX - 1}}$`,
    example: '42,7',
  },
);

const ZPetsCategoryIdQuery = idFromText(
  'categoryId',
  'Only animals of this category (see `GET /v1/categories`). An addition to the spec; omit ' +
    'for all categories.',
);

/** The filters of listPets as its cursor carries them, in this order. */
export type TPetsListFilters = {
  status?: TPetStatus | undefined;
  categoryId?: number | undefined;
  id?: number[] | undefined;
};

/** The cursor of listPets: where the next page starts, and the list's filters. */
export const PETS_CURSOR = listCursor<TPetsListFilters>({
  status: { write: (status) => status, read: (text) => ZPetStatus.safeParse(text).data },
  categoryId: {
    write: String,
    read: (text) => ZPetsCategoryIdQuery.safeParse(text).data,
  },
  id: { write: (ids) => ids.join(','), read: (text) => ZPetIdsQuery.safeParse(text).data },
});

export const ZPetsCursorQuery = extendApi(
  z
    .string()
    .min(1, 'cursor must not be empty')
    .max(
      listCursorMaxLength(['available'.length, String(MAX_ID).length, PET_IDS_MAX_LENGTH]),
      'cursor is too long',
    )
    .optional(),
  {
    description:
      'Opaque cursor from the `rel="next"` link of a previous page: the items after that page. ' +
      'It carries the filters of its list, so send it alone or with the same filters; a ' +
      'different filter is refused (`400`).',
  },
);

export const ZListPetsQuery = z.object({
  limit: ZLimitQuery,
  status: extendApi(ZPetStatus.optional(), {
    description: 'Only animals whose status equals this value. Omit for all animals.',
  }),
  categoryId: ZPetsCategoryIdQuery.optional(),
  id: ZPetIdsQuery.optional(),
  cursor: ZPetsCursorQuery,
});
/** The query as the server works with it: `id` read into its distinct ids, largest first. */
export type TListPetsQuery = z.infer<typeof ZListPetsQuery>;
/** The query as a client sends it: `id` is its text (`'42'` or `'42,7'`). */
export type TListPetsQueryInput = z.input<typeof ZListPetsQuery>;

export const ZPetIdParams = z.object({
  petId: extendApi(idFromText('petId', 'ID of the animal.'), { example: 42 }),
});
export type TPetIdParams = z.infer<typeof ZPetIdParams>;
