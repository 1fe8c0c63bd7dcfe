import { z } from 'zod';

/**
 * The role of an API key. `partner` (the default): everything the spec gives a key, plus its own
 * adoption orders. `staff`: the store itself: every order, approving and completing them, and
 * `updatePet`. Not on the wire, but the routers declare which operations need `staff`.
 */
export const ZApiKeyRole = z.enum(['partner', 'staff']);
export type TApiKeyRole = z.infer<typeof ZApiKeyRole>;
export const ApiKeyRole = ZApiKeyRole.enum;
