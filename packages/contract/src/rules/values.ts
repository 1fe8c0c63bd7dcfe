import { EMAIL_MAX_LENGTH } from './email';
import { PHONE_MAX_LENGTH } from './phone';

// The values and lengths of the schemas that a page's browser code needs (a select's options, an
// input's maxlength, a list's page size), without zod: the schemas (`../schemas`) are built from
// these, and `@pets/contract/schemas` exports them too. A client component that imported them
// from the schemas loaded zod and every schema of the API with them (about 140 KB of script).

/** Largest id the API hands out or accepts: IDs are int64 on the wire but stay JSON-safe. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const PET_SEXES = ['male', 'female', 'unknown'] as const;
export const PET_AGES = ['baby', 'young', 'adult', 'senior'] as const;
export const PET_SIZES = ['small', 'medium', 'large', 'xlarge'] as const;

export const PET_NAME_MAX_LENGTH = 100;

/** Longest `name` search: as long as a name. */
export const PET_NAME_SEARCH_MAX_LENGTH = PET_NAME_MAX_LENGTH;

/** The words of a search: runs of letters, marks and digits; everything else separates them. */
const SEARCH_WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The words of a `name` search, in order, as sent (the database compares them case-blind). */
export const nameSearchWords = (text: string): string[] => text.match(SEARCH_WORD) ?? [];

/** Most ids one `id` filter of listPets may name. */
export const PET_IDS_MAX = 100;

export const ADOPTER_NAME_MAX_LENGTH = 100;
export const ADOPTER_EMAIL_MAX_LENGTH = EMAIL_MAX_LENGTH;
export const ADOPTER_PHONE_MAX_LENGTH = PHONE_MAX_LENGTH;
export const ORDER_MESSAGE_MAX_LENGTH = 1000;
/** An application's "who lives with you" and "other animals at home": a line or two each. */
export const ORDER_HOUSEHOLD_MAX_LENGTH = 200;
export const ORDER_OTHER_ANIMALS_MAX_LENGTH = 200;
/** Longest `q` of listOrders: a whole email address fits. */
export const ORDER_SEARCH_MAX_LENGTH = ADOPTER_EMAIL_MAX_LENGTH;
