import type { TPet } from '@pets/contract/schemas';

/**
 * One page of the Browse list, as the API gives it (filters, `limit` and the cursor all go to
 * `listPets`): the animals, and the cursor of the next page from its `Link: rel="next"` header,
 * undefined on the last page.
 */
export type TPetsPage = { pets: TPet[]; nextCursor?: string };
