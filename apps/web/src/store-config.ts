import { z } from 'zod';
import { ConfigError, parseEnvironment } from './environment';

/**
 * Where and when people can visit the store, and how soon it answers an application: shown on an
 * animal's page, the apply form and the confirmation. From configuration (env.ts reads it), with
 * defaults that make `pnpm start` look like a real store. Pure, so it can be tested; kept apart
 * from config.ts because none of it is secret and none of it is required.
 */
/**
 * The store's details, each with what it means (`.describe()`): `pnpm docs:config` writes the table
 * of docs/site.md from it, and a test fails when the two differ.
 */
export const ZStoreEnvironment = z.object({
  /** One line; commas become line breaks where the address is shown as a block. */
  STORE_ADDRESS: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .default('12 Orchard Lane, Millbrook, MB1 2PA')
    .describe(
      "the store's address, one line (at most 200 characters); commas become line breaks where it is shown as a block",
    ),
  /** Free text, one line, as a person would write it. */
  STORE_OPENING_HOURS: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .default('Tuesday to Saturday, 10:00 to 17:00')
    .describe('opening hours as a person writes them, one line (at most 200 characters)'),
  /** Working days within which the store contacts someone who applied to adopt. */
  STORE_REPLY_DAYS: z.coerce
    .number({ invalid_type_error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be between 1 and 30')
    .max(30, 'must be between 1 and 30')
    .default(3)
    .describe('working days within which the store answers an application (1 to 30)'),
});

export type TStoreConfig = {
  address: string;
  openingHours: string;
  replyDays: number;
};

/** The store's variables fail as every other variable does. */
export { ConfigError as StoreConfigError };

export const parseStoreConfig = (environment: Record<string, string | undefined>): TStoreConfig => {
  const variables = parseEnvironment(ZStoreEnvironment, environment, { isBlankUnset: true });
  return {
    address: variables.STORE_ADDRESS,
    openingHours: variables.STORE_OPENING_HOURS,
    replyDays: variables.STORE_REPLY_DAYS,
  };
};
