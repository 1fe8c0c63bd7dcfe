import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { listCursor, listCursorMaxLength } from '../rules/cursor';
import { ID_NUMBER_PATTERN } from '../rules/id';
import { PET_PHOTOS_MAX } from '../rules/photo-limit';
import {
  nameSearchWords,
  PET_AGES,
  PET_IDS_MAX,
  PET_NAME_MAX_LENGTH,
  PET_NAME_SEARCH_MAX_LENGTH,
  PET_SEXES,
  PET_SIZES,
  PET_STATUSES,
} from '../rules/values';
import {
  idField,
  idFromText,
  instant,
  instantFilter,
  integerFromText,
  MAX_ID,
  nonBlankText,
  PAGE_SIZE,
  storableText,
  ZLimitQuery,
  ZUpdatedSinceQuery,
  zId,
} from './common';
import { ZPetPhoto } from './photo';

export const ZPetStatus = extendApi(z.enum(PET_STATUSES), {
  description:
    'Availability of the animal: `available` for adoption, `pending` while an adoption is being ' +
    'arranged, `sold` once it has gone to its new home.',
});
export type TPetStatus = z.infer<typeof ZPetStatus>;
export const PetStatus = ZPetStatus.enum;

export { PET_NAME_MAX_LENGTH };

export const ZPetName = storableText(
  nonBlankText(
    z.string({ required_error: 'is required', invalid_type_error: 'must be a string' }),
    'must not be empty',
  ).max(PET_NAME_MAX_LENGTH, `must be at most ${PET_NAME_MAX_LENGTH} characters`),
).describe("The animal's name.");

// The profile: what adopters choose by. Every field is optional on NewPet, may be
// cleared with `null` on PetUpdate, and is present on Pet (`null` when unknown).

export const ZPetSex = extendApi(z.enum(PET_SEXES), {
  description:
    "The animal's sex: `male`, `female`, or `unknown` when the store cannot tell (a young bird, " +
    'a fish). `null` on a Pet means nobody has said.',
});
export type TPetSex = z.infer<typeof ZPetSex>;
export const PetSex = ZPetSex.enum;

export const ZPetAge = extendApi(z.enum(PET_AGES), {
  description:
    'Life stage, as adoption sites group animals: `baby` (a puppy, a kitten), `young`, `adult`, ' +
    '`senior`. A stage rather than a number, since the age of a rescued animal is an estimate.',
});
export type TPetAge = z.infer<typeof ZPetAge>;
export const PetAge = ZPetAge.enum;

export const ZPetSize = extendApi(z.enum(PET_SIZES), {
  description:
    'Size when grown, relative to its kind: `small`, `medium`, `large`, `xlarge` (extra large).',
});
export type TPetSize = z.infer<typeof ZPetSize>;
export const PetSize = ZPetSize.enum;

export const PET_DESCRIPTION_MAX_LENGTH = 2000;
export const PET_BREED_MAX_LENGTH = 100;

export const ZPetDescription = storableText(
  nonBlankText(
    z.string({ invalid_type_error: 'must be a string or null' }),
    'must not be empty (send null for no description)',
  ).max(PET_DESCRIPTION_MAX_LENGTH, `must be at most ${PET_DESCRIPTION_MAX_LENGTH} characters`),
).describe(
  `The animal's story, in plain text (no HTML or Markdown; line breaks are kept), at most ` +
    `${PET_DESCRIPTION_MAX_LENGTH} characters, without leading or trailing spaces.`,
);

export const ZPetBreed = storableText(
  nonBlankText(
    z.string({ invalid_type_error: 'must be a string or null' }),
    'must not be empty (send null for no breed)',
  ).max(PET_BREED_MAX_LENGTH, `must be at most ${PET_BREED_MAX_LENGTH} characters`),
).describe(
  `Breed or kind, free text (\`Labrador mix\`, \`Dwarf lop\`), at most ${PET_BREED_MAX_LENGTH} characters.`,
);

/** The earliest arrival date accepted: older records are typing mistakes. */
export const PET_ARRIVED_AT_MIN = '1900-01-01';

/** Hours the furthest time zone (UTC+14, Kiribati) is ahead of UTC. */
const MAX_UTC_OFFSET_HOURS = 14;

/**
 * The latest arrival date accepted at `now`: today somewhere on Earth, so a store in any time zone
 * can record an animal that arrived today by its own calendar, and no date in the future anywhere.
 */
export const latestArrivalDate = (now: Date = new Date()): string =>
  new Date(now.getTime() + MAX_UTC_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date written `YYYY-MM-DD` (no 2026-02-30). */
export const isCalendarDate = (text: string): boolean => {
  const match = CALENDAR_DATE.exec(text);
  if (!match) {
    return false;
  }
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text && Number(match[1]) >= 1;
};

const ARRIVED_AT_DESCRIPTION =
  'The day the animal arrived at the store, a calendar date `YYYY-MM-DD` (RFC 3339 full-date, ' +
  "no time zone: the store's own calendar).";

export const ZPetArrivedAt = extendApi(
  z
    .string({ invalid_type_error: 'must be a date YYYY-MM-DD or null' })
    .superRefine((text, context) => {
      if (!isCalendarDate(text)) {
        context.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'must be a real date written YYYY-MM-DD',
        });
      } else if (text < PET_ARRIVED_AT_MIN) {
        context.addIssue({
          code: z.ZodIssueCode.custom,
          message: `must not be before ${PET_ARRIVED_AT_MIN}`,
        });
      } else if (text > latestArrivalDate()) {
        context.addIssue({ code: z.ZodIssueCode.custom, message: 'must not be in the future' });
      }
    }),
  {
    format: 'date',
    maxLength: 10,
    description:
      `${ARRIVED_AT_DESCRIPTION} From ${PET_ARRIVED_AT_MIN} to today; a date that is in the ` +
      'future in every time zone is refused.',
    example: '2026-03-03',
  },
);

// The details adopters ask about (issue 28), as Petfinder's `attributes` and `environment` and
// RescueGroups' energy levels carry them. Each is optional on NewPet, cleared with `null` on
// PetUpdate, and present on Pet: `null` when unknown (colours: `[]`).

/** A yes/no detail: `true`, `false`, or `null` when the store does not know. */
const fact = (description: string) =>
  extendApi(z.boolean({ invalid_type_error: 'must be true, false or null' }), {
    description: `${description} \`null\` when the store does not know.`,
  });

export const ZPetGoodWithChildren = fact('Whether the animal is happy around children.');
export const ZPetGoodWithDogs = fact('Whether the animal gets on with dogs.');
export const ZPetGoodWithCats = fact('Whether the animal gets on with cats.');
export const ZPetHouseTrained = fact(
  'Whether the animal is house-trained (litter-trained, for a cat or a rabbit).',
);
export const ZPetSpayedNeutered = fact('Whether the animal is spayed or neutered.');
export const ZPetVaccinated = fact("Whether the animal's vaccinations are up to date.");
export const ZPetSpecialNeeds = fact(
  'Whether the animal has special needs (a condition, a medicine, a diet); `specialNeedsNote` ' +
    'says which.',
);

export const PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH = 500;

export const ZPetSpecialNeedsNote = storableText(
  nonBlankText(
    z.string({ invalid_type_error: 'must be a string or null' }),
    'must not be empty (send null for no note)',
  ).max(
    PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH,
    `must be at most ${PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH} characters`,
  ),
).describe(
  `What an adopter should know about the animal's special needs, in plain text, at most ` +
    `${PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH} characters.`,
);

export const ZPetEnergyLevel = extendApi(z.enum(['low', 'medium', 'high']), {
  description:
    'How lively the animal is: `low` (content with short walks and long naps), `medium`, `high` ' +
    '(needs a lot of exercise and play every day).',
});
export type TPetEnergyLevel = z.infer<typeof ZPetEnergyLevel>;
export const PetEnergyLevel = ZPetEnergyLevel.enum;

export const ZPetCoatLength = extendApi(z.enum(['hairless', 'short', 'medium', 'long']), {
  description: "The length of the animal's coat: `hairless`, `short`, `medium`, `long`.",
});
export type TPetCoatLength = z.infer<typeof ZPetCoatLength>;
export const PetCoatLength = ZPetCoatLength.enum;

/** The closed list of colours and patterns, as the database's `pet_color` type holds them. */
export const ZPetColor = extendApi(
  z.enum([
    'black',
    'white',
    'grey',
    'brown',
    'red',
    'ginger',
    'cream',
    'golden',
    'tan',
    'blue',
    'silver',
    'yellow',
    'green',
    'orange',
    'brindle',
    'tabby',
    'tortoiseshell',
    'calico',
    'spotted',
    'merle',
  ]),
  { description: 'A colour or pattern of the coat, the plumage or the scales.' },
);
export type TPetColor = z.infer<typeof ZPetColor>;

export const PET_COLORS_MAX = 3;

const colorsDescription = `Up to ${PET_COLORS_MAX} colours or patterns, the main one first, none twice.`;

export const ZPetColors = extendApi(
  z
    .array(ZPetColor, { invalid_type_error: 'must be a list of colours or null' })
    .max(PET_COLORS_MAX, `must hold at most ${PET_COLORS_MAX} colours`)
    .refine((colors) => new Set(colors).size === colors.length, 'must not name a colour twice'),
  { uniqueItems: true, description: `${colorsDescription} \`null\` or \`[]\` clears the list.` },
);

/** The largest fee: ten million minor units (100,000.00 in a currency of cents). */
export const ADOPTION_FEE_AMOUNT_MAX = 10_000_000;

/** Whether a code is an ISO 4217 currency this runtime knows (ICU's list, as `Intl` has it). */
const isKnownCurrency = (code: string): boolean =>
  (Intl as { supportedValuesOf?: (key: 'currency') => string[] })
    .supportedValuesOf?.('currency')
    .includes(code) ?? /^[A-Z]{3}$/.test(code);

/** An ISO 4217 code in capitals; `prefix` starts its messages (a query parameter's name). */
const currencyCode = (prefix: string) =>
  z
    .string({
      required_error: `${prefix}is required`,
      invalid_type_error: `${prefix}must be a string`,
    })
    .regex(/^[A-Z]{3}$/, `${prefix}must be an ISO 4217 code in capitals, such as EUR`)
    .refine(
      (code) => !/^[A-Z]{3}$/.test(code) || isKnownCurrency(code),
      `${prefix}must be an ISO 4217 currency code, such as EUR`,
    );

export const ZAdoptionFee = extendApi(
  z
    .object({
      amount: extendApi(
        z
          .number({ required_error: 'is required', invalid_type_error: 'must be an integer' })
          .int('must be an integer (minor units: cents, pence)')
          .min(0, 'must not be negative')
          .max(ADOPTION_FEE_AMOUNT_MAX, `must be at most ${ADOPTION_FEE_AMOUNT_MAX}`),
        {
          format: 'int32',
          description:
            "The fee in the currency's minor units (cents, pence): `9500` is 95.00. `0` is a " +
            'free adoption.',
        },
      ),
      currency: extendApi(currencyCode(''), {
        maxLength: 3,
        description: 'The ISO 4217 currency code, in capitals (`EUR`, `GBP`).',
      }),
    })
    .strict(),
  // No title: a titled schema becomes a `$ref`, which OpenAPI 3.0 cannot make nullable beside it.
  {
    description: 'What adopting the animal costs. `null` on a Pet: ask the store.',
  },
);
export type TAdoptionFee = z.infer<typeof ZAdoptionFee>;

/** The profile fields of a body: each may be left out, or `null` for unknown (none). */
const profileInput = {
  description: ZPetDescription.nullable().optional(),
  sex: ZPetSex.nullable().optional(),
  age: ZPetAge.nullable().optional(),
  size: ZPetSize.nullable().optional(),
  breed: ZPetBreed.nullable().optional(),
  arrivedAt: ZPetArrivedAt.nullable().optional(),
  goodWithChildren: ZPetGoodWithChildren.nullable().optional(),
  goodWithDogs: ZPetGoodWithDogs.nullable().optional(),
  goodWithCats: ZPetGoodWithCats.nullable().optional(),
  houseTrained: ZPetHouseTrained.nullable().optional(),
  spayedNeutered: ZPetSpayedNeutered.nullable().optional(),
  vaccinated: ZPetVaccinated.nullable().optional(),
  specialNeeds: ZPetSpecialNeeds.nullable().optional(),
  specialNeedsNote: ZPetSpecialNeedsNote.nullable().optional(),
  energyLevel: ZPetEnergyLevel.nullable().optional(),
  coatLength: ZPetCoatLength.nullable().optional(),
  colors: ZPetColors.nullable().optional(),
  adoptionFee: ZAdoptionFee.nullable().optional(),
};

/** A profile field's value as TNewPet/TPetUpdate carry it (null: unknown; undefined: not sent). */
export type TPetProfileInput = {
  [K in keyof typeof profileInput]: z.output<(typeof profileInput)[K]>;
};

/** The profile's fields, in the order a Pet shows them. */
export const PET_PROFILE_FIELDS = Object.keys(profileInput) as (keyof typeof profileInput)[];

const PROFILE_EXAMPLE = {
  description:
    'Biscuit is a gentle, curious beagle mix who loves long walks and naps in the sun. ' +
    'He gets on well with children and other dogs.',
  sex: 'male',
  age: 'young',
  size: 'medium',
  breed: 'Beagle mix',
  arrivedAt: '2026-03-03',
  goodWithChildren: true,
  goodWithDogs: true,
  goodWithCats: true,
  houseTrained: true,
  spayedNeutered: true,
  vaccinated: true,
  specialNeeds: false,
  energyLevel: 'high',
  coatLength: 'short',
  colors: ['tan', 'white'],
  adoptionFee: { amount: 9500, currency: 'EUR' },
} as const;

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
      ...profileInput,
    })
    .strict(),
  {
    title: 'NewPet',
    example: { name: 'Biscuit', categoryId: 1, status: 'available', ...PROFILE_EXAMPLE },
  },
);
/** What a client sends (status and the profile optional). */
export type TNewPetInput = z.input<typeof ZNewPet>;
/** What the server works with after validation (status defaulted). */
export type TNewPet = z.output<typeof ZNewPet>;

/**
 * The body of updatePet (staff keys): any of `name`, `categoryId`, `status` and the profile; a
 * field left out keeps its value, a profile field sent as `null` is cleared. No defaults here: an
 * update never changes what it does not name.
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
      ...profileInput,
    })
    .strict(),
  {
    title: 'PetUpdate',
    example: { status: 'available', age: 'adult', breed: null },
  },
);
export type TPetUpdate = z.infer<typeof ZPetUpdate>;

/** The largest `applicationsInReview`: the column is an int4. */
export const APPLICATIONS_IN_REVIEW_MAX = 2_147_483_647;

export const ZPet = extendApi(
  z.object({
    id: idField('Unique identifier assigned by the service on creation.'),
    name: z.string().max(100).describe("The animal's name."),
    categoryId: idField('ID of the category the animal belongs to.'),
    status: ZPetStatus,
    description: z
      .string()
      .max(PET_DESCRIPTION_MAX_LENGTH)
      .nullable()
      .describe("The animal's story in plain text (line breaks kept); `null` when none."),
    sex: ZPetSex.nullable(),
    age: ZPetAge.nullable(),
    size: ZPetSize.nullable(),
    breed: z
      .string()
      .max(PET_BREED_MAX_LENGTH)
      .nullable()
      .describe('Breed or kind, free text; `null` when unknown.'),
    arrivedAt: extendApi(z.string().length(10).nullable(), {
      format: 'date',
      description: `${ARRIVED_AT_DESCRIPTION} \`null\` when unknown.`,
    }),
    goodWithChildren: ZPetGoodWithChildren.nullable(),
    goodWithDogs: ZPetGoodWithDogs.nullable(),
    goodWithCats: ZPetGoodWithCats.nullable(),
    houseTrained: ZPetHouseTrained.nullable(),
    spayedNeutered: ZPetSpayedNeutered.nullable(),
    vaccinated: ZPetVaccinated.nullable(),
    specialNeeds: ZPetSpecialNeeds.nullable(),
    specialNeedsNote: z
      .string()
      .max(PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH)
      .nullable()
      .describe('What an adopter should know about its special needs; `null` when none.'),
    energyLevel: ZPetEnergyLevel.nullable(),
    coatLength: ZPetCoatLength.nullable(),
    colors: extendApi(z.array(ZPetColor).max(PET_COLORS_MAX), {
      uniqueItems: true,
      description: `${colorsDescription} \`[]\` when none are recorded.`,
    }),
    adoptionFee: ZAdoptionFee.nullable(),
    photos: extendApi(z.array(ZPetPhoto).max(PET_PHOTOS_MAX), {
      description:
        `The photos of the animal in their order, the first its main photo; \`[]\` when it has ` +
        `none (show an illustration of its category). At most ${PET_PHOTOS_MAX}.`,
    }),
    // An int4 column in the database; the bounds and format as OWASP's rules want them stated.
    applicationsInReview: extendApi(z.number().int().min(0).max(APPLICATIONS_IN_REVIEW_MAX), {
      format: 'int32',
      description:
        'How many adoption applications for the animal are in review (`placed` or `waitlisted`), ' +
        'without who sent them. Read-only: the store keeps it as applications arrive and move.',
    }),
    updatedAt: instant(
      'When anything shown here last changed (RFC 3339, UTC, milliseconds): the profile, the ' +
        'status, the photos, `applicationsInReview`. Read-only.',
    ),
  }),
  {
    title: 'Pet',
    example: {
      id: 42,
      name: 'Biscuit',
      categoryId: 1,
      status: 'available',
      ...PROFILE_EXAMPLE,
      specialNeedsNote: null,
      photos: [],
      applicationsInReview: 2,
      updatedAt: '2026-11-23T11:02:00.000Z',
    },
  },
);
export type TPet = z.infer<typeof ZPet>;

/** The details of issue 28 as a Pet shows them when nobody has given any. */
export const PET_UNKNOWN_DETAILS = {
  goodWithChildren: null,
  goodWithDogs: null,
  goodWithCats: null,
  houseTrained: null,
  spayedNeutered: null,
  vaccinated: null,
  specialNeeds: null,
  specialNeedsNote: null,
  energyLevel: null,
  coatLength: null,
  colors: [],
  adoptionFee: null,
} satisfies Partial<TPet>;

/** The details' fields, in the order a Pet shows them. */
export const PET_DETAIL_FIELDS = Object.keys(
  PET_UNKNOWN_DETAILS,
) as (keyof typeof PET_UNKNOWN_DETAILS)[];
/** The details of a Pet, as the store reads them and the site words them. */
export type TPetDetails = Pick<TPet, keyof typeof PET_UNKNOWN_DETAILS>;
/** The yes/no details: `true`, `false` or `null` (unknown). */
export const PET_DETAIL_FACTS = [
  'goodWithChildren',
  'goodWithDogs',
  'goodWithCats',
  'houseTrained',
  'spayedNeutered',
  'vaccinated',
  'specialNeeds',
] as const satisfies readonly (keyof TPetDetails)[];

export const ZPets = extendApi(z.array(ZPet).max(PAGE_SIZE.max), { title: 'Pets' });
export type TPets = z.infer<typeof ZPets>;

/** Most ids one `listPets` request may name in its `id` filter. */
export { PET_IDS_MAX };
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
      `(\`42\` or \`42,7,19\`), each from 1 to ${MAX_ID} (as every id). Ids that name no animal ` +
      'are left out, so an unknown id gives an empty list, not an error. Combines with the ' +
      'other filters. The replacement of the deprecated `GET /pets/{petId}`. An addition to the ' +
      'spec; omit for all animals.',
    // Each id's bound, as an integer id states it with `maximum`; leading zeros are read (`007`).
    pattern: `^0*${ID_NUMBER_PATTERN}(,0*${ID_NUMBER_PATTERN}){0,${PET_IDS_MAX - 1}}$`,
  },
);

const ZPetsCategoryIdQuery = idFromText(
  'categoryId',
  'Only animals of this category (see `GET /v1/categories`). An addition to the spec; omit ' +
    'for all categories.',
);

export { nameSearchWords, PET_NAME_SEARCH_MAX_LENGTH };

/**
 * The `name` search of listPets: the animals one of whose name's words starts with each word of
 * the search, case-insensitively (`bis` finds Biscuit, `mr whi` finds Mr. Whiskers, `luc` finds
 * Jean-Luc). Read into its words joined by single spaces, the form its cursor carries.
 */
export const ZPetNameSearchQuery = extendApi(
  z
    .string({ invalid_type_error: 'name must be a text, sent once' })
    .min(1, 'name must not be empty')
    .max(
      PET_NAME_SEARCH_MAX_LENGTH,
      `name must be at most ${PET_NAME_SEARCH_MAX_LENGTH} characters`,
    )
    .transform((text, context): string => {
      const words = nameSearchWords(text);
      if (words.length === 0) {
        context.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'name must contain a letter or a digit',
        });
        return z.NEVER;
      }
      return words.join(' ');
    }),
  {
    description:
      'Only animals whose name has words starting with each word of this text, in any order ' +
      'and case (`bis` finds Biscuit, `whi mr` finds Mr. Whiskers, `luc` finds Jean-Luc). Words ' +
      'are runs of letters and digits; other characters separate them and are ignored. Accents ' +
      `count (\`zoe\` does not find Zoé). At most ${PET_NAME_SEARCH_MAX_LENGTH} characters. An ` +
      'addition to the spec; omit for every name.',
  },
);

/** The filters of listPets as its cursor carries them, in this order (new ones at the end). */
export type TPetsListFilters = {
  status?: TPetStatus | undefined;
  categoryId?: number | undefined;
  id?: number[] | undefined;
  sex?: TPetSex | undefined;
  age?: TPetAge | undefined;
  size?: TPetSize | undefined;
  /** The `name` search's words, joined by single spaces. */
  name?: string | undefined;
  /** Only animals changed at or after this instant (RFC 3339, as sent). */
  updatedSince?: string | undefined;
  /** The order of the list: absent (or `newest`), newest first by id. */
  sort?: TPetsListSort | undefined;
  /**
   * Never sent by a client: in a cursor of `sort=updatedAt`, the last animal's `updatedAt`, the
   * next page starting after (updatedAt, id) of that animal.
   */
  updatedAfter?: string | undefined;
  goodWithChildren?: boolean | undefined;
  goodWithDogs?: boolean | undefined;
  goodWithCats?: boolean | undefined;
  houseTrained?: boolean | undefined;
  spayedNeutered?: boolean | undefined;
  vaccinated?: boolean | undefined;
  specialNeeds?: boolean | undefined;
  energyLevel?: TPetEnergyLevel | undefined;
  coatLength?: TPetCoatLength | undefined;
  /** Only animals whose fee is known, in `feeCurrency`, and at most this many minor units. */
  feeMax?: number | undefined;
  /** Only animals whose fee is known and in this currency. */
  feeCurrency?: string | undefined;
  /** Never sent by a client: in a cursor of `sort=name`, the last animal's name. */
  nameAfter?: string | undefined;
  /**
   * Never sent by a client: in a cursor of `sort=arrived`, the last animal's arrival date, or
   * PETS_ARRIVAL_UNKNOWN when it has none (the animals of unknown arrival come last).
   */
  arrivedAfter?: string | undefined;
};

/** A `sort=arrived` cursor's place among the animals whose arrival nobody recorded. */
export const PETS_ARRIVAL_UNKNOWN = 'unknown';

export const ZPetsListSort = extendApi(
  z.enum(['newest', 'oldest', 'name', 'arrived', 'updatedAt']),
  {
    description:
      'The order of the list, ties always broken by id. `newest` (the default): the animal added ' +
      'last first. `oldest`: the animal added first first. `name`: by name A to Z, upper and lower ' +
      "case alike (`bella` beside `Bella`, in the database's collation), ties oldest first. " +
      '`arrived`: the latest `arrivedAt` first, ties newest first, the animals whose arrival is ' +
      'unknown last. `updatedAt`: the animal changed longest ago first, ties by id, each change ' +
      'moving the animal to the end (with `updatedSince`, the walk of a sync: docs/api.md, ' +
      '"Keeping in sync"). Each pages with the cursor of its `Link` header. An addition to the spec.',
  },
);
export type TPetsListSort = z.infer<typeof ZPetsListSort>;

const enumFilter = <T extends string>(schema: z.ZodType<T>) => ({
  write: (value: T) => value,
  read: (text: string) => schema.safeParse(text).data,
});

/** A yes/no filter in a cursor: `true` or `false`. */
const factFilter = {
  write: String,
  read: (text: string) => (text === 'true' ? true : text === 'false' ? false : undefined),
};

const decodeComponent = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

/** Text in a cursor, percent-encoded: ASCII without `:`, whatever its script. */
const textFilter = (valid: (text: string) => string | undefined) => ({
  write: encodeURIComponent,
  read: (text: string) => {
    const decoded = decodeComponent(text);
    return decoded === undefined ? undefined : valid(decoded);
  },
});

/** A yes/no filter of listPets: the text `true` or `false` (a typed client sends the boolean). */
const factQuery = (name: string, description: string) =>
  extendApi(
    z.preprocess(
      (value) => (value === 'true' ? true : value === 'false' ? false : value),
      z.boolean({ invalid_type_error: `${name} must be true or false` }),
    ) as unknown as z.ZodEffects<z.ZodBoolean, boolean, boolean>,
    {
      description:
        `${description} \`true\`: only the animals the store knows to be so; \`false\`: only ` +
        'those it knows not to be. Animals whose answer is unknown (`null`) are in neither list. ' +
        'An addition to the spec; omit for all.',
    },
  );

export const ZPetsFeeMaxQuery = extendApi(
  integerFromText(
    z
      .number({ invalid_type_error: 'feeMax must be an integer' })
      .int('feeMax must be an integer (minor units: cents, pence)')
      .min(0, 'feeMax must not be negative')
      .max(ADOPTION_FEE_AMOUNT_MAX, `feeMax must be at most ${ADOPTION_FEE_AMOUNT_MAX}`),
  ),
  {
    format: 'int32',
    description:
      'Only animals whose adoption fee is known, in `feeCurrency` (required with `feeMax`), and ' +
      'at most this amount in minor units (`5000` is 50.00): `0` finds the free adoptions. ' +
      'Animals whose fee is unknown ("ask the store") are left out, and so are fees in other ' +
      'currencies: amounts are never converted. An addition to the spec; omit for all.',
  },
);

export const ZPetsFeeCurrencyQuery = extendApi(currencyCode('feeCurrency '), {
  maxLength: 3,
  description:
    'Only animals whose adoption fee is known and in this ISO 4217 currency (`GBP`); required ' +
    'with `feeMax`. An addition to the spec; omit for all.',
});

/**
 * A rule of listPets' query that no single parameter can check, or undefined: `feeMax` needs
 * `feeCurrency`, since amounts in different currencies cannot be compared.
 */
export const listPetsQueryIssue = (query: {
  feeMax?: number | undefined;
  feeCurrency?: string | undefined;
}): { field: 'feeCurrency'; message: string } | undefined =>
  query.feeMax !== undefined && query.feeCurrency === undefined
    ? {
        field: 'feeCurrency',
        message:
          'feeCurrency is required with feeMax: fees in different currencies cannot be compared',
      }
    : undefined;

/** The cursor of listPets: where the next page starts, and the list's filters. */
export const PETS_CURSOR = listCursor<TPetsListFilters>(
  {
    status: enumFilter(ZPetStatus),
    categoryId: {
      write: String,
      read: (text) => ZPetsCategoryIdQuery.safeParse(text).data,
    },
    id: { write: (ids) => ids.join(','), read: (text) => ZPetIdsQuery.safeParse(text).data },
    sex: enumFilter(ZPetSex),
    age: enumFilter(ZPetAge),
    size: enumFilter(ZPetSize),
    name: textFilter((words) => ZPetNameSearchQuery.safeParse(words).data),
    updatedSince: instantFilter,
    // `newest` is the order of a list without `sort`: one list, one cursor.
    sort: { ...enumFilter(ZPetsListSort), absent: 'newest' },
    updatedAfter: instantFilter,
    goodWithChildren: factFilter,
    goodWithDogs: factFilter,
    goodWithCats: factFilter,
    houseTrained: factFilter,
    spayedNeutered: factFilter,
    vaccinated: factFilter,
    specialNeeds: factFilter,
    energyLevel: enumFilter(ZPetEnergyLevel),
    coatLength: enumFilter(ZPetCoatLength),
    feeMax: { write: String, read: (text) => ZPetsFeeMaxQuery.safeParse(text).data },
    feeCurrency: { write: String, read: (text) => ZPetsFeeCurrencyQuery.safeParse(text).data },
    // As the database holds it (a name of the seed or of an import may not be trimmed).
    nameAfter: textFilter((name) =>
      name.length > 0 && [...name].length <= PET_NAME_MAX_LENGTH ? name : undefined,
    ),
    arrivedAfter: {
      write: String,
      read: (text) => (text === PETS_ARRIVAL_UNKNOWN || isCalendarDate(text) ? text : undefined),
    },
    // Cursors issued before the profile filters carry status, categoryId and id only; those
    // issued before the sync filters, the seven before them; before the details and the sorts,
    // the ten before them.
  },
  { earlierFilterCounts: [3, 7, 10] },
);

/** Longest text of each filter in the cursor, in its order. */
const PETS_CURSOR_FILTER_MAX_LENGTHS = [
  'available'.length,
  String(MAX_ID).length,
  PET_IDS_MAX_LENGTH,
  'unknown'.length,
  'senior'.length,
  'xlarge'.length,
  // A UTF-16 unit percent-encodes into at most 9 characters (3 bytes of UTF-8).
  PET_NAME_SEARCH_MAX_LENGTH * 9,
  // An instant as milliseconds since 1970, a sign included.
  16,
  'updatedAt'.length,
  16,
  ...PET_DETAIL_FACTS.map(() => 'false'.length),
  'medium'.length,
  'hairless'.length,
  String(ADOPTION_FEE_AMOUNT_MAX).length,
  3,
  // Characters, as varchar(100) counts them: one outside the BMP percent-encodes into 12.
  PET_NAME_MAX_LENGTH * 12,
  PETS_ARRIVAL_UNKNOWN.length,
];

export const ZPetsCursorQuery = extendApi(
  z
    .string()
    .min(1, 'cursor must not be empty')
    .max(listCursorMaxLength(PETS_CURSOR_FILTER_MAX_LENGTHS), 'cursor is too long')
    .optional(),
  {
    description:
      'Opaque cursor from the `rel="next"` link of a previous page: the items after that page. ' +
      'It carries the filters and the sort of its list, so send it alone or with the same ' +
      'filters and sort; a different one is refused (`400`).',
  },
);

/** What `include` may ask for besides the page. */
export const ZPetsListInclude = extendApi(z.enum(['total_count']), {
  description:
    '`total_count`: also count every animal that matches the filters, sent in the ' +
    '`X-Total-Count` header (on every page that asks). Costs a count of the matching animals; ' +
    'ask on the first page, where a total is shown, not on every page. An addition to the spec.',
});
export type TPetsListInclude = z.infer<typeof ZPetsListInclude>;

export const ZListPetsQuery = z.object({
  limit: ZLimitQuery,
  status: extendApi(ZPetStatus.optional(), {
    description: 'Only animals whose status equals this value. Omit for all animals.',
  }),
  categoryId: ZPetsCategoryIdQuery.optional(),
  id: ZPetIdsQuery.optional(),
  sex: extendApi(ZPetSex.optional(), {
    description:
      'Only animals of this sex (`unknown`: those the store cannot tell; animals nobody has ' +
      'described are left out of every `sex` filter). An addition to the spec; omit for all.',
  }),
  age: extendApi(ZPetAge.optional(), {
    description: 'Only animals of this life stage. An addition to the spec; omit for all.',
  }),
  size: extendApi(ZPetSize.optional(), {
    description: 'Only animals of this size. An addition to the spec; omit for all.',
  }),
  name: ZPetNameSearchQuery.optional(),
  updatedSince: ZUpdatedSinceQuery.optional(),
  goodWithChildren: factQuery(
    'goodWithChildren',
    'Only animals by whether they are happy around children.',
  ).optional(),
  goodWithDogs: factQuery(
    'goodWithDogs',
    'Only animals by whether they get on with dogs.',
  ).optional(),
  goodWithCats: factQuery(
    'goodWithCats',
    'Only animals by whether they get on with cats.',
  ).optional(),
  houseTrained: factQuery(
    'houseTrained',
    'Only animals by whether they are house-trained.',
  ).optional(),
  spayedNeutered: factQuery(
    'spayedNeutered',
    'Only animals by whether they are spayed or neutered.',
  ).optional(),
  vaccinated: factQuery(
    'vaccinated',
    'Only animals by whether their vaccinations are up to date.',
  ).optional(),
  specialNeeds: factQuery(
    'specialNeeds',
    'Only animals by whether they have special needs.',
  ).optional(),
  energyLevel: extendApi(ZPetEnergyLevel.optional(), {
    description:
      'Only animals of this energy level (animals whose level is unknown are left out). An ' +
      'addition to the spec; omit for all.',
  }),
  coatLength: extendApi(ZPetCoatLength.optional(), {
    description:
      'Only animals of this coat length (animals whose coat is unknown are left out). An ' +
      'addition to the spec; omit for all.',
  }),
  feeMax: ZPetsFeeMaxQuery.optional(),
  feeCurrency: ZPetsFeeCurrencyQuery.optional(),
  // No zod default: a cursor's sort applies when the request names none.
  sort: extendApi(ZPetsListSort.optional(), { default: 'newest' }),
  include: ZPetsListInclude.optional(),
  cursor: ZPetsCursorQuery,
});
/**
 * The query as the server works with it: `id` read into its distinct ids, largest first; `name`
 * into its words joined by single spaces.
 */
export type TListPetsQuery = z.infer<typeof ZListPetsQuery>;
/** The query as a client sends it: `id` is its text (`'42'` or `'42,7'`). */
export type TListPetsQueryInput = z.input<typeof ZListPetsQuery>;

export const ZPetIdParams = z.object({
  petId: extendApi(idFromText('petId', 'ID of the animal.'), { example: 42 }),
});
export type TPetIdParams = z.infer<typeof ZPetIdParams>;
