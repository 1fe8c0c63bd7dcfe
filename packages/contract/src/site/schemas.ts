import { z } from 'zod';
import { PASSWORD_LENGTH } from '../rules/password';
import { ZEmailAddress } from '../schemas/common';
import { ZCustomLimit } from '../schemas/custom-limit';
import { listPetsQueryIssue, ZListPetsQuery } from '../schemas/pet';

/**
 * The shapes of the site-only contract (issue 27): people's accounts, sessions and tokens. Never
 * in the OpenAPI document; only the store's own site calls these operations.
 */

export const ZAccountRole = z.enum(['admin', 'staff', 'developer']);
export type TAccountRole = z.infer<typeof ZAccountRole>;

export const ZAccountStatus = z.enum(['invited', 'active', 'deactivated']);

/** Where a person signs in: staff and admins at /staff, developers at /developers. */
export const ZSignInArea = z.enum(['staff', 'developers']);
export type TSignInArea = z.infer<typeof ZSignInArea>;

/** 10 to 200 characters; the API also refuses the email address itself. */
export const ZPassword = z.string().min(PASSWORD_LENGTH.min).max(PASSWORD_LENGTH.max);
/** A password typed at sign-in: any length up to the limit (a wrong one is just wrong). */
export const ZPasswordAttempt = z.string().min(1).max(PASSWORD_LENGTH.max);
export const ZPersonName = z.string().trim().min(1).max(100);
/** A signed token from an email link: `<account id>.<expiry b36>.<MAC>`. */
export const ZAccountToken = z
  .string()
  .max(200)
  .regex(/^[1-9][0-9]{0,17}\.[0-9a-z]{1,12}\.[A-Za-z0-9_-]{22}$/);
const ZId = z.string().regex(/^[1-9][0-9]{0,17}$/);
const ZInstant = z.string().datetime();

export const ZSiteAccount = z.object({
  id: ZId,
  email: z.string().max(254),
  name: z.string().max(100),
  role: ZAccountRole,
  status: ZAccountStatus,
  emailVerified: z.boolean(),
  organization: z.object({ id: ZId, name: z.string().max(100) }).nullable(),
});
export type TSiteAccount = z.infer<typeof ZSiteAccount>;

export const ZSiteSession = z.object({
  id: ZId,
  method: z.enum(['password', 'passkey']),
  createdAt: ZInstant,
  lastSeenAt: ZInstant,
  expiresAt: ZInstant,
  idleSeconds: z.number().int(),
  userAgent: z.string().max(200).nullable(),
  /** A coarse reading of the user agent for people ("Firefox on Windows"), or null. */
  device: z.string().max(100).nullable(),
  visitorIp: z.string().max(45).nullable(),
  /** The session of the credential this request was made with. */
  isCurrent: z.boolean(),
});
export type TSiteSession = z.infer<typeof ZSiteSession>;

export const ZSignInRequest = z.object({
  email: ZEmailAddress,
  password: ZPasswordAttempt,
  area: ZSignInArea,
  /** The session ends after this long without a request (capped by SESSION_IDLE_MAX_SECONDS). */
  idleSeconds: z.number().int().min(1).max(86_400).optional(),
  userAgent: z.string().max(1000).optional(),
  /** The device token of an earlier sign-in on this device (the `pets_device` cookie). */
  deviceToken: z.string().max(200).optional(),
});

export const ZSignInResponse = z.object({
  /** The session credential: shown once, kept by the site in its sealed cookie. */
  credential: z.string(),
  session: z.object({ id: ZId, expiresAt: ZInstant, idleSeconds: z.number().int() }),
  account: ZSiteAccount,
  /** Proves later that this device signed in to this account before (throttling, §2.5). */
  deviceToken: z.string(),
});

export const ZSignUpRequest = z.object({
  email: ZEmailAddress,
  password: ZPassword,
  name: ZPersonName,
  organizationName: z.string().trim().min(1).max(100),
});

export const ZCurrentSession = z.object({
  account: ZSiteAccount,
  session: ZSiteSession,
});

/** One line of the audit log: who did what, to what, when. */
export const ZAuditEntry = z.object({
  id: ZId,
  at: ZInstant,
  /** The person, when a person did it (null: a script's key, the CLI, the schedule). */
  actorAccountId: ZId.nullable(),
  actorName: z.string().max(100),
  action: z.string().max(64),
  targetType: z.string().max(32),
  targetId: z.string().max(64),
  /** What the action's entries record besides (an animal's: ZPetAuditDetails). */
  details: z.record(z.string(), z.unknown()),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

/** What an entry is about: `pet`, `order`, `account`, `api_key`, ... */
export const ZAuditTargetType = z
  .string()
  .regex(/^[a-z_]+$/)
  .max(32);

/** A field of an animal an update changed, with its values before and after (as a Pet has them). */
export const ZPetFieldChange = z.object({
  field: z.string().max(32),
  from: z.unknown(),
  to: z.unknown(),
});
export type TPetFieldChange = z.infer<typeof ZPetFieldChange>;

/**
 * The details of an animal's entries (`pet.*`): its name after the change, so the log reads
 * "changed Rex" even after a rename; for an update, the fields that changed; for a photo, its id.
 */
export const ZPetAuditDetails = z.object({
  name: z.string().max(100),
  changes: z.array(ZPetFieldChange).optional(),
  photoId: z.number().int().optional(),
});
export type TPetAuditDetails = z.infer<typeof ZPetAuditDetails>;

export const ZListAuditQuery = z.object({
  actor: ZId.optional(),
  action: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]+)*$/)
    .max(64)
    .optional(),
  /** Entries about one kind of thing (`pet`), or with `targetId` about one of them. */
  targetType: ZAuditTargetType.optional(),
  targetId: z.string().min(1).max(64).optional(),
  /** From this UTC day (YYYY-MM-DD), included. */
  from: z.string().date().optional(),
  /** To this UTC day, included. */
  to: z.string().date().optional(),
  /** The `nextBefore` of the page before: older entries. */
  before: ZId.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type TListAuditQuery = z.input<typeof ZListAuditQuery>;

// --- The developer portal: the organisation's keys and usage (issue 27, §4.1–4.3) -------------

/** A key's mode, its prefix: `live` (pets_live_) or `test` (pets_test_, reads only on production). */
export const ZKeyMode = z.enum(['live', 'test']);
export type TKeyMode = z.infer<typeof ZKeyMode>;

export const ZPlanName = z.enum(['free', 'pro', 'business', 'enterprise']);
export const ZPlanLimits = z.object({
  perMinute: z.number().int(),
  perDay: z.number().int(),
});

/** An organisation's plan and the limits every one of its keys gets. */
export const ZOrganizationPlan = z.object({
  id: ZId,
  name: z.string().max(100),
  plan: ZPlanName,
  limits: ZPlanLimits,
});
export type TOrganizationPlan = z.infer<typeof ZOrganizationPlan>;

// --- Plans: a developer asks for another plan, staff decide (issue 27, §4.5) -------------------

export const ZPlanRequestStatus = z.enum(['pending', 'approved', 'declined', 'withdrawn']);
export type TPlanRequestStatus = z.infer<typeof ZPlanRequestStatus>;

/** The longest message of a request, and of a decision's note. */
export const PLAN_REQUEST_TEXT_MAX = 1000;

/** A request to change an organisation's plan, and what became of it. */
export const ZPlanRequest = z.object({
  id: ZId,
  /** The organisation as it is now (its plan changes when a request is approved). */
  organization: ZOrganizationPlan,
  /** The plan when the request was made, and the plan asked for. */
  currentPlan: ZPlanName,
  requestedPlan: ZPlanName,
  message: z.string().max(PLAN_REQUEST_TEXT_MAX).nullable(),
  status: ZPlanRequestStatus,
  /**
   * Who asked (null if that account is gone), and whether their address is confirmed now: staff
   * see an unconfirmed one said so, since anyone can sign up with someone else's address.
   */
  requestedBy: z
    .object({
      id: ZId,
      name: z.string().max(100),
      email: z.string().max(254),
      emailConfirmed: z.boolean(),
    })
    .nullable(),
  createdAt: ZInstant,
  decidedAt: ZInstant.nullable(),
  /** The staff member who approved or declined it, as they were named then. */
  decidedByName: z.string().max(100).nullable(),
  /** The decider's words to the developer (sent in the email too). */
  decisionNote: z.string().max(PLAN_REQUEST_TEXT_MAX).nullable(),
  /** The Enterprise limits set at approval. */
  limits: ZPlanLimits.nullable(),
});
export type TPlanRequest = z.infer<typeof ZPlanRequest>;

/** The developer's organisation: its plan, limits, and its latest plan request. */
export const ZOrganization = ZOrganizationPlan.extend({
  /** The pending request, or else the latest decided one (null: none was ever made). */
  planRequest: ZPlanRequest.nullable(),
});
export type TOrganization = z.infer<typeof ZOrganization>;

const ZText = z.string().trim().max(PLAN_REQUEST_TEXT_MAX);

export const ZRequestPlanChange = z.object({
  plan: ZPlanName,
  /** What the developer needs it for; staff read it in the queue. */
  message: ZText.optional(),
});
export type TRequestPlanChange = z.input<typeof ZRequestPlanChange>;

/**
 * Staff's decision. Approving an Enterprise request needs both custom limits, rpm (per minute)
 * and rpd (per day), by the rule of `customLimitsProblem` (`@pets/contract/rules`); other plans
 * have fixed limits and take neither.
 */
export const ZDecidePlanRequest = z.object({
  decision: z.enum(['approve', 'decline']),
  note: ZText.optional(),
  rpm: ZCustomLimit('rpm').optional(),
  rpd: ZCustomLimit('rpd').optional(),
});
export type TDecidePlanRequest = z.input<typeof ZDecidePlanRequest>;

/** An Enterprise organisation's limits, set again by staff. */
export const ZOrganizationLimits = z.object({ rpm: ZCustomLimit('rpm'), rpd: ZCustomLimit('rpd') });

export const ZListPlanRequestsQuery = z.object({
  status: ZPlanRequestStatus.default('pending'),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

/** The most live keys an organisation may have at once (revoked and expired ones do not count). */
export const MAX_LIVE_KEYS_PER_ORGANIZATION = 50;
/** The most keys, test and live, an organisation may have at once (docs/decisions.md). */
export const MAX_ACTIVE_KEYS_PER_ORGANIZATION = 100;
/**
 * The most plan requests an organisation may make in 24 hours, withdrawn ones included: each one
 * emails every member of staff, so asking and withdrawing in a loop must not fill their inboxes.
 */
export const MAX_PLAN_REQUESTS_PER_DAY = 3;
/** How long the API reference's "Try it" key works: long enough to explore, short enough not to matter. */
export const REFERENCE_KEY_MINUTES = 60;
/** The furthest ahead a key's expiry may be set. */
export const MAX_KEY_LIFETIME_DAYS = 365;
/** A roll's overlap, in hours: none (the old secret stops at once) to 7 days. */
export const MAX_ROLL_OVERLAP_HOURS = 168;

/** A key of the organisation as the portal lists it: never the key itself. */
export const ZOrgKey = z.object({
  id: ZId,
  name: z.string().max(100),
  /** The key's first characters, e.g. pets_live_3xK9: what lists and logs show. */
  start: z.string(),
  mode: ZKeyMode,
  readOnly: z.boolean(),
  createdAt: ZInstant,
  lastUsedAt: ZInstant.nullable(),
  expiresAt: ZInstant.nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
  /** After a roll: until when the old secret still works (null when no overlap is running). */
  previousSecretExpiresAt: ZInstant.nullable(),
});
export type TOrgKey = z.infer<typeof ZOrgKey>;

export const ZCreateOrgKey = z.object({
  name: z.string().trim().min(1).max(100),
  mode: ZKeyMode,
  readOnly: z.boolean().default(false),
  /** At most a year ahead; absent, the key does not expire. */
  expiresAt: ZInstant.optional(),
});
export type TCreateOrgKey = z.input<typeof ZCreateOrgKey>;

/** A new key or a new secret: `key` is the plaintext, shown this once and never again. */
export const ZIssuedOrgKey = z.object({ key: z.string(), apiKey: ZOrgKey });
export type TIssuedOrgKey = z.infer<typeof ZIssuedOrgKey>;

export const ZRollOrgKey = z.object({
  overlapHours: z.number().int().min(0).max(MAX_ROLL_OVERLAP_HOURS),
});

/** Requests of one hour or one UTC day, by status class. */
export const ZUsageCounts = z.object({
  '2xx': z.number().int(),
  '3xx': z.number().int(),
  '4xx': z.number().int(),
  '429': z.number().int(),
  '5xx': z.number().int(),
});
export const ZUsagePeriod = z.object({
  /** The start of the hour or of the UTC day. */
  start: ZInstant,
  counts: ZUsageCounts,
});

/** A key's requests, every hour and every UTC day of the period (zeros included), oldest first. */
export const ZKeyUsage = z.object({
  keyId: ZId,
  days: z.number().int(),
  hourly: z.array(ZUsagePeriod),
  daily: z.array(ZUsagePeriod),
});
export type TKeyUsage = z.infer<typeof ZKeyUsage>;

/** One rate-limit window of a key as it stands: requests counted against the plan's limit. */
export const ZWindowNow = z.object({
  used: z.number().int(),
  limit: z.number().int(),
  /** Until the window starts again (0 when it has not started). */
  resetInSeconds: z.number().int(),
});

export const ZOrgUsageNow = z.object({
  keys: z.array(
    z.object({
      id: ZId,
      name: z.string().max(100),
      start: z.string(),
      minute: ZWindowNow,
      day: ZWindowNow,
    }),
  ),
});
export type TOrgUsageNow = z.infer<typeof ZOrgUsageNow>;

// --- Saved searches (issue 28) -----------------------------------------------------------------

/**
 * What a saved search keeps: exactly a listPets filter (ZListPetsQuery itself, not a copy), less
 * what is not a filter of which animals (the page size, the order, the cursor, `include`) and what
 * an alert decides itself: it is always about animals that became `available`, so no `status`,
 * `id` or `updatedSince`. Unknown keys are dropped, so the site may send its browse query as is.
 */
export const ZSavedSearchFilter = ZListPetsQuery.omit({
  limit: true,
  sort: true,
  include: true,
  cursor: true,
  status: true,
  id: true,
  updatedSince: true,
}).superRefine((filter, context) => {
  const issue = listPetsQueryIssue(filter);
  if (issue) {
    context.addIssue({ code: z.ZodIssueCode.custom, path: [issue.field], message: issue.message });
  }
});
/** The filter as the API keeps it (a name search as its words, joined by single spaces). */
export type TSavedSearchFilter = z.infer<typeof ZSavedSearchFilter>;
/** The filter as the site sends it. */
export type TSavedSearchFilterInput = z.input<typeof ZSavedSearchFilter>;

/**
 * The per-address limits of saved searches (the site adds its per-visitor one): an address may
 * have this many searches that are confirmed and not unsubscribed, and ask for this many new ones
 * (each sends a confirmation email) in 24 hours.
 */
export const SAVED_SEARCH_LIMITS = { activePerAddress: 10, newPerAddressPerDay: 3 } as const;

/** How long a confirmation link works: after that, the search is never confirmed. */
export const SAVED_SEARCH_CONFIRM_DAYS = 7;

/** At most one alert per search in this many hours. */
export const SAVED_SEARCH_ALERT_HOURS = 24;

/** The token of a confirm or unsubscribe link: 256 bits of an HMAC, base64url. */
export const ZSavedSearchToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const ZSaveSearchRequest = z.object({ email: ZEmailAddress, filter: ZSavedSearchFilter });
export type TSaveSearchRequest = z.input<typeof ZSaveSearchRequest>;

/** What a confirm or unsubscribe answers: the search's filter, for the page to say it in words. */
export const ZSavedSearchAnswer = z.object({ filter: ZSavedSearchFilter });
export type TSavedSearchAnswer = z.infer<typeof ZSavedSearchAnswer>;

/** Staff: how many confirmed, subscribed searches wait for each filter (never who). */
export const ZSavedSearchWaiting = z.object({
  filters: z.array(z.object({ filter: ZSavedSearchFilter, searches: z.number().int() })),
  total: z.number().int(),
});
export type TSavedSearchWaiting = z.infer<typeof ZSavedSearchWaiting>;

// --- Passkeys (issue 27, slice 5): WebAuthn credentials, a second way to sign in ---------------
// The WebAuthn shapes below carry explicit types: inferred, they make the site contract's type too
// long for the compiler to write out.

const ZBase64Url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/);

/**
 * The options the browser's `navigator.credentials.create()`/`.get()` takes, in their JSON form
 * (`@simplewebauthn/browser`'s `optionsJSON`). Made by the API's WebAuthn library and passed
 * through by the site untouched: only the challenge is named here (the rest passes through, and
 * the browser library's own type describes it).
 */
export type TPasskeyOptions = { challenge: string };
export const ZPasskeyOptions: z.ZodType<TPasskeyOptions> = z
  .object({ challenge: ZBase64Url(128) })
  .passthrough();

type TCredentialBase = {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment?: 'platform' | 'cross-platform';
  clientExtensionResults: Record<string, unknown>;
};
const ZCredentialBase = {
  id: ZBase64Url(1024),
  rawId: ZBase64Url(1024),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.unknown()),
};

/** What the browser's `startRegistration()` returns: a new credential, attested. */
export type TPasskeyRegistration = TCredentialBase & {
  response: {
    clientDataJSON: string;
    attestationObject: string;
    transports?: string[];
    [field: string]: unknown;
  };
};
export const ZPasskeyRegistration: z.ZodType<TPasskeyRegistration> = z.object({
  ...ZCredentialBase,
  response: z
    .object({
      clientDataJSON: ZBase64Url(4096),
      attestationObject: ZBase64Url(16_384),
      transports: z.array(z.string().max(32)).max(10).optional(),
    })
    .passthrough(),
});

/** What the browser's `startAuthentication()` returns: a signed assertion. */
export type TPasskeyAssertion = TCredentialBase & {
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string;
    [field: string]: unknown;
  };
};
export const ZPasskeyAssertion: z.ZodType<TPasskeyAssertion> = z.object({
  ...ZCredentialBase,
  response: z
    .object({
      clientDataJSON: ZBase64Url(4096),
      authenticatorData: ZBase64Url(4096),
      // ML-DSA (post-quantum) signatures are a few KiB; the library offers it where Node has it.
      signature: ZBase64Url(8192),
      userHandle: ZBase64Url(256).optional(),
    })
    .passthrough(),
});

export const ZPasskeyName = z.string().trim().min(1).max(100);

/**
 * Proof, from a signed-in person, that they are the account's owner before a passkey is added:
 * the password again, or an assertion of a passkey the account has (answering the challenge of
 * `passkeyOptions`). The session alone is not enough: it may be borrowed or stolen.
 */
export type TPasskeyConfirmation = { password: string } | { passkey: TPasskeyAssertion };
export const ZPasskeyConfirmation: z.ZodType<TPasskeyConfirmation> = z.union([
  z.object({ password: ZPasswordAttempt }).strict(),
  z.object({ passkey: ZPasskeyAssertion }).strict(),
]);

/** One of the person's passkeys (never its key material). */
export type TPasskey = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced between devices (a passkey manager), as the authenticator says. */
  backedUp: boolean;
};
export const ZPasskey: z.ZodType<TPasskey> = z.object({
  id: ZId,
  name: z.string().max(100),
  createdAt: ZInstant,
  lastUsedAt: ZInstant.nullable(),
  backedUp: z.boolean(),
});

export type TPasskeySignInRequest = {
  response: TPasskeyAssertion;
  area: TSignInArea;
  idleSeconds?: number;
  userAgent?: string;
};
export const ZPasskeySignInRequest: z.ZodType<TPasskeySignInRequest> = z.object({
  response: ZPasskeyAssertion,
  area: ZSignInArea,
  idleSeconds: z.number().int().min(1).max(86_400).optional(),
  userAgent: z.string().max(1000).optional(),
});
