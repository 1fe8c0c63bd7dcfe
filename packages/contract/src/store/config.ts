// The store's variables, their parser and defaults (see index.ts).
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../rules/email';
import {
  PHONE_MAX_LENGTH,
  PHONE_MIN_LENGTH,
  PHONE_PATTERN,
  PHONE_PATTERN_MESSAGE,
} from '../rules/phone';

/** A bad store variable, in one line: `Invalid configuration: NAME what is wrong`. */
export class StoreConfigError extends Error {
  override name = 'StoreConfigError';
}

/** A one-line free text with a default: trimmed, not empty, at most `max` characters. */
const line = (max: number, fallback: string, description: string) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !/[\r\n]/.test(value), { message: 'must be one line' })
    .default(fallback)
    .describe(description);

/**
 * Whether Intl knows `zone` as a time zone name (IANA, such as `Europe/London`; Intl reads names
 * case-insensitively). Offsets such as `+01:00` are refused: they have no summer time, so a store
 * that wrote one would show the wrong hour for half the year.
 */
export const isTimeZone = (zone: string): boolean => {
  if (!/^[A-Za-z]/.test(zone)) {
    return false;
  }
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const STORE_NAME_MAX_LENGTH = 80;
export const STORE_EMAIL_MAX_LENGTH = EMAIL_MAX_LENGTH;

/**
 * The store's variables, each with what it means (`.describe()`): `pnpm docs:config` writes the
 * table of docs/site.md from it, and a test fails when the two differ. The defaults make a fresh
 * `pnpm start` look like a real store (a drama-range phone number, a reserved `.example` domain).
 */
export const ZStoreEnvironment = z.object({
  STORE_NAME: line(
    STORE_NAME_MAX_LENGTH,
    'Kindred Paws',
    `the store's name, in the header, the footer, page titles and emails (at most ${STORE_NAME_MAX_LENGTH} characters)`,
  ),
  STORE_ADDRESS: line(
    200,
    '12 Orchard Lane, Millbrook, MB1 2PA',
    "the store's address, one line (at most 200 characters); commas become line breaks where it is shown as a block, and it links to a map search (OpenStreetMap)",
  ),
  STORE_OPENING_HOURS: line(
    200,
    'Tuesday to Saturday, 10:00 to 17:00',
    'opening hours as a person writes them, one line (at most 200 characters)',
  ),
  STORE_REPLY_DAYS: z.coerce
    .number({ invalid_type_error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be between 1 and 30')
    .max(30, 'must be between 1 and 30')
    .default(3)
    .describe('working days within which the store answers an application (1 to 30)'),
  STORE_PHONE: z
    .string()
    .trim()
    .min(PHONE_MIN_LENGTH, `must be at least ${PHONE_MIN_LENGTH} characters`)
    .max(PHONE_MAX_LENGTH, `must be at most ${PHONE_MAX_LENGTH} characters`)
    .regex(PHONE_PATTERN, PHONE_PATTERN_MESSAGE)
    .default('0161 496 0123')
    .describe(
      "the store's phone number as people dial it (digits, spaces and ( ) - . with an optional leading +); shown with a `tel:` link",
    ),
  STORE_EMAIL: z
    .string()
    .trim()
    .max(STORE_EMAIL_MAX_LENGTH, `must be at most ${STORE_EMAIL_MAX_LENGTH} characters`)
    // The one rule for addresses (rules/email.ts); the variable itself may have spaces around it.
    .regex(EMAIL_PATTERN, 'must be an email address such as hello@example.org')
    .default('hello@kindredpaws.example')
    .describe("the store's email address for adopters; shown with a `mailto:` link"),
  STORE_TIME_ZONE: z
    .string()
    .trim()
    .refine(isTimeZone, {
      message: 'must be an IANA time zone such as Europe/London or America/New_York',
    })
    .default('Europe/London')
    .describe(
      "the store's IANA time zone: every date the site and its emails show is in it, with the zone's abbreviation (GMT, BST, ...)",
    ),
  STORE_ADOPTION_FEE: line(
    200,
    '£75 for a dog or a cat, £35 for a rabbit or a bird',
    'the adoption fee as a person says it, one line (at most 200 characters); shown on the "How adoption works" page',
  ),
});

export type TStoreConfig = {
  name: string;
  address: string;
  openingHours: string;
  replyDays: number;
  phone: string;
  email: string;
  /** An IANA name, such as `Europe/London`, as configured. */
  timeZone: string;
  adoptionFee: string;
};

/**
 * The store's configuration from `environment` (`process.env` or any map of variables). An empty
 * or blank variable counts as unset, so its default applies. The first bad variable throws a
 * StoreConfigError naming it and what is wrong; the value itself is never echoed.
 */
export const parseStoreConfig = (environment: Record<string, string | undefined>): TStoreConfig => {
  const present = Object.fromEntries(
    Object.keys(ZStoreEnvironment.shape)
      .map((name) => [name, environment[name]] as const)
      .filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = ZStoreEnvironment.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new StoreConfigError(
      `Invalid configuration: ${String(issue?.path[0] ?? 'STORE')} ${issue?.message ?? 'is invalid'}`,
    );
  }
  const variables = result.data;
  return {
    name: variables.STORE_NAME,
    address: variables.STORE_ADDRESS,
    openingHours: variables.STORE_OPENING_HOURS,
    replyDays: variables.STORE_REPLY_DAYS,
    phone: variables.STORE_PHONE,
    email: variables.STORE_EMAIL,
    timeZone: variables.STORE_TIME_ZONE,
    adoptionFee: variables.STORE_ADOPTION_FEE,
  };
};

/** The store with no configuration at all: what `pnpm start` shows. */
export const STORE_DEFAULTS: TStoreConfig = parseStoreConfig({});
