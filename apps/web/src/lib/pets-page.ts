import type { TPet } from '@pets/contract/schemas';

/**
 * One page of the Browse list, as the API gives it (filters, `limit` and the cursor all go to
 * `listPets`): the animals, the cursor of the next page from its `Link: rel="next"` header,
 * undefined on the last page, and how many animals match the filters on all pages, when the API
 * was asked and told (`X-Total-Count`).
 */
export type TPetsPage = { pets: TPet[]; nextCursor?: string; total?: number };
