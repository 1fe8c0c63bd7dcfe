import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/**
 * The role of an API key. `partner` (the default): everything the spec gives a key, plus its own
 * adoption orders. `staff`: the store itself: every order, approving and completing them, and
 * `updatePet`. The routers declare which operations need `staff`; `GET /v1/me` tells a key its own.
 */
export const ZApiKeyRole = extendApi(z.enum(['partner', 'staff']), {
  description: '`partner`: its own orders; `staff`: the store itself (every order, `updatePet`).',
});
export type TApiKeyRole = z.infer<typeof ZApiKeyRole>;
export const ApiKeyRole = ZApiKeyRole.enum;

export const ZApiKeyPlan = z.enum(['free', 'pro', 'business', 'enterprise']);
export type TApiKeyPlan = z.infer<typeof ZApiKeyPlan>;

/** The longest display start of a key (e.g. `pets_live_3xK9`). */
export const KEY_START_MAX_LENGTH = 32;
/** The longest name of a key (`pnpm keys create --name`). */
export const KEY_NAME_MAX_LENGTH = 100;

/**
 * The calling key as `GET /v1/me` describes it: what a client needs to know what the key may do
 * (as GitHub's `GET /user` answers who the token belongs to). Never the key itself or its hash.
 */
export const ZCurrentKey = extendApi(
  z.object({
    name: z
      .string()
      .max(KEY_NAME_MAX_LENGTH)
      .describe('The name the store gave the key when it made it.'),
    start: z
      .string()
      .max(KEY_START_MAX_LENGTH)
      .describe('The display start of the key, e.g. `pets_live_3xK9`: the only form ever shown.'),
    role: ZApiKeyRole,
    readOnly: z.boolean().describe('A read-only key may call only `GET` operations.'),
    plan: extendApi(ZApiKeyPlan, { description: 'The plan whose rate limits the key has.' }),
    firstParty: z
      .boolean()
      .describe(
        "The store's own site: its requests are counted per visitor. `false` for every partner's key.",
      ),
    owner: extendApi(
      z
        .object({
          type: z
            .enum(['organization', 'person'])
            .describe(
              "`person`: a person's session through the store's site; `organization`: a developer organisation's key.",
            ),
          name: z.string().max(100).describe('The name of the person or the organisation.'),
        })
        .nullable(),
      {
        description:
          'Who the key belongs to; `null` for a key the store made for a partner or a script (`pnpm keys`).',
      },
    ),
    mode: z
      .enum(['live', 'test'])
      .describe(
        "The key's mode, named by its prefix (`pets_live_`, `pets_test_`). On production a `test` key may read, and manage its own webhook endpoints, but not change the store; on staging every key is `test`.",
      ),
    expiresAt: z
      .string()
      .datetime()
      .max(24)
      .nullable()
      .describe(
        "When the key stops working (a person's session: its absolute end); `null`: it does not expire, though it may be revoked.",
      ),
  }),
  {
    title: 'CurrentKey',
    example: {
      name: 'Front desk',
      start: 'pets_live_Q7mZ',
      role: 'staff',
      readOnly: false,
      plan: 'business',
      firstParty: false,
      owner: null,
      mode: 'live',
      expiresAt: null,
    },
  },
);
export type TCurrentKey = z.infer<typeof ZCurrentKey>;
