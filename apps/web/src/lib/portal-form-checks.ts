import { PASSWORD_LENGTH_WORDS } from '@pets/contract/rules';
import {
  ALL_EVENT_TYPES,
  type TNewWebhookEndpoint,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  ZNewWebhookEndpoint,
} from '@pets/contract/schemas';
import {
  MAX_KEY_LIFETIME_DAYS,
  PLAN_REQUEST_TEXT_MAX,
  type TCreateOrgKey,
  type TRequestPlanChange,
  ZCreateOrgKey,
  ZRequestPlanChange,
  ZSignUpRequest,
} from '@pets/contract/site';
import type { z } from 'zod';
import { fieldErrorsOf, issuesOfCheck, type TFieldWords, type TFormWords } from './form-issues';
import {
  ROLL_OVERLAP_HOURS,
  type TEndpointField,
  type TEndpointValues,
  type TKeyField,
  type TKeyValues,
  type TPlanField,
  type TPlanValues,
  type TRollField,
  type TRollValues,
  type TSignUpField,
  type TSignUpValues,
} from './portal-form-fields';

/**
 * The developer portal's forms, checked alike by the browser (before sending) and by the server
 * actions (again, then the API checks a third time): the contract's schemas decide, and each
 * form says their findings, and the API's `400` details, in its own words under its fields
 * (form-issues.ts maps both). A validator's text never reaches the page.
 */

export type TFormCheck<TField extends string, TInput> =
  | { success: true; data: TInput }
  | { success: false; fieldErrors: Partial<Record<TField, string>> };

/** A schema's answer as the form's check: its issues in the form's words. */
const checked = <TField extends string, TInput>(
  result: z.SafeParseReturnType<unknown, TInput>,
  words: TFormWords<TField>,
  found: Partial<Record<TField, string>> = {},
): TFormCheck<TField, TInput> => {
  const fieldErrors = {
    ...(result.success ? {} : fieldErrorsOf(issuesOfCheck(result.error.issues), words)),
    ...found,
  };
  if (Object.keys(fieldErrors).length > 0) {
    return { success: false, fieldErrors };
  }
  // A schema's issue of no field the form shows cannot happen with its own values: say so plainly.
  return result.success
    ? { success: true, data: result.data }
    : { success: false, fieldErrors: firstField(words, 'Please check this.') };
};

const firstField = <TField extends string>(words: TFormWords<TField>, message: string) => {
  const [field] = Object.keys(words.fields) as TField[];
  return field === undefined ? {} : ({ [field]: message } as Partial<Record<TField, string>>);
};

const isAtMost = (message: string) => /at most|too long|too_big/i.test(message);

/** Words for a required text: what to type, or how long it may be. */
const textWords =
  (missing: string, tooLong: string): TFieldWords =>
  (message) =>
    isAtMost(message) ? tooLong : missing;

// --- Sign up ----------------------------------------------------------------------------------

export const TAKEN_EMAIL =
  'An account with this email address exists already: sign in, or reset its password.';

export const SIGN_UP_WORDS: TFormWords<TSignUpField> = {
  fields: {
    email: (message) =>
      /exists already/.test(message)
        ? TAKEN_EMAIL
        : isAtMost(message)
          ? 'Enter an email address of at most 254 characters.'
          : 'Enter your email address, such as name@example.org.',
    password: (message) =>
      /email address/.test(message)
        ? 'Choose a password that is not your email address.'
        : `Choose a password of ${PASSWORD_LENGTH_WORDS}.`,
    name: textWords('Enter your name.', 'Keep your name to 100 characters.'),
    organizationName: textWords(
      'Enter the name of your organisation.',
      "Keep your organisation's name to 100 characters.",
    ),
  },
};

export type TSignUpInput = z.output<typeof ZSignUpRequest>;

/** The address as typed less the spaces around it (a phone's keyboard adds one after a word). */
export const checkSignUp = (values: TSignUpValues) =>
  checked(ZSignUpRequest.safeParse({ ...values, email: values.email.trim() }), SIGN_UP_WORDS);

// --- Keys -------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const EXPIRY_PAST = 'Choose an expiry date from today on, or leave it empty.';
const EXPIRY_FAR = `Choose an expiry date at most ${MAX_KEY_LIFETIME_DAYS} days ahead.`;

export const KEY_WORDS: TFormWords<TKeyField> = {
  fields: {
    name: textWords(
      'Give the key a name, such as “Shelter app”.',
      'Keep the key’s name to 100 characters.',
    ),
    mode: (message) =>
      /staging/.test(message)
        ? 'This API issues test keys only: choose Test.'
        : 'Choose test or live.',
    readOnly: 'Choose whether the key may only read.',
    expiresOn: (message) => (isAtMost(message) ? EXPIRY_FAR : EXPIRY_PAST),
  },
  paths: { expiresAt: 'expiresOn' },
};

/** The expiry date chosen as the end of that day (UTC), or the words of why not. */
const expiryOf = (day: string, now: number): { at?: string; problem?: string } => {
  if (day === '') {
    return {};
  }
  const at = Date.parse(`${day}T23:59:59Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(at) || at <= now) {
    return { problem: EXPIRY_PAST };
  }
  if (at > now + MAX_KEY_LIFETIME_DAYS * DAY_MS) {
    return { problem: EXPIRY_FAR };
  }
  return { at: new Date(at).toISOString() };
};

export const checkKey = (values: TKeyValues, now = Date.now()) => {
  const expiry = expiryOf(values.expiresOn, now);
  const input: TCreateOrgKey = {
    name: values.name,
    mode: values.mode === 'live' ? 'live' : 'test',
    readOnly: values.readOnly === 'on',
    ...(expiry.at ? { expiresAt: expiry.at } : {}),
  };
  return checked(
    ZCreateOrgKey.safeParse(input),
    KEY_WORDS,
    expiry.problem ? { expiresOn: expiry.problem } : {},
  );
};

export const ROLL_WORDS: TFormWords<TRollField> = {
  fields: { overlapHours: 'Choose how long the old secret keeps working.' },
};

export const checkRoll = (values: TRollValues): TFormCheck<TRollField, number> => {
  const hours = Number(values.overlapHours);
  return values.overlapHours !== '' && ROLL_OVERLAP_HOURS.some((each) => each.hours === hours)
    ? { success: true, data: hours }
    : { success: false, fieldErrors: { overlapHours: ROLL_WORDS.fields.overlapHours as string } };
};

/** What the API says about the key of a roll, a revocation or an endpoint's page. */
export const KEY_REFUSED = 'This key has expired or was revoked: choose an active key.';

// --- Plan -------------------------------------------------------------------------------------

export const PLAN_WORDS: TFormWords<TPlanField> = {
  fields: {
    plan: (message) =>
      /already/.test(message)
        ? 'Your organisation is on this plan already: choose another.'
        : 'Choose the plan you would like.',
    message: `Keep the message to ${PLAN_REQUEST_TEXT_MAX} characters, please.`,
  },
};

export const checkPlan = (values: TPlanValues) => {
  const input: TRequestPlanChange = {
    plan: values.plan as TRequestPlanChange['plan'],
    ...(values.message.trim() === '' ? {} : { message: values.message }),
  };
  return checked(ZRequestPlanChange.safeParse(input), PLAN_WORDS);
};

// --- Webhook endpoints ------------------------------------------------------------------------

/**
 * An address refused, by the contract (not a URL) or by the API (the scheme, a user name, a
 * private address; its rules depend on its configuration, so only it can tell).
 */
const addressWords = (message: string): string => {
  if (/absolute/.test(message)) {
    return 'Enter the whole address, such as https://example.org/hooks/pets.';
  }
  if (/user name or password/.test(message)) {
    return 'Leave the user name and password out of the address: your receiver checks the signature instead.';
  }
  if (/public address|loopback|private/.test(message)) {
    return 'Use an address on the public Internet: this one is on a private or local network.';
  }
  if (/http or https/.test(message)) {
    return 'Use an address that starts with https:// (or http://).';
  }
  if (/https/.test(message)) {
    return 'Use an address that starts with https://, such as https://example.org/hooks/pets.';
  }
  if (isAtMost(message)) {
    return `Keep the address to ${WEBHOOK_URL_MAX_LENGTH} characters.`;
  }
  return 'Enter the whole address, such as https://example.org/hooks/pets.';
};

export const ENDPOINT_WORDS: TFormWords<TEndpointField> = {
  fields: {
    keyId: KEY_REFUSED,
    url: addressWords,
    events: 'Choose at least one kind of event, or every event.',
    description: `Keep the note to ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.`,
  },
};

const KEY_ID = /^[1-9][0-9]{0,17}$/;

export const checkEndpoint = (values: TEndpointValues) => {
  const url = values.url.trim();
  const description = values.description.trim();
  const result = ZNewWebhookEndpoint.safeParse({
    url,
    events: values.events.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : values.events,
    ...(description === '' ? {} : { description }),
  });
  const found: Partial<Record<TEndpointField, string>> = {
    ...(KEY_ID.test(values.keyId) ? {} : { keyId: 'Choose the key the endpoint belongs to.' }),
    ...(url === '' ? { url: 'Enter the address to send events to.' } : {}),
  };
  const check = checked(result, ENDPOINT_WORDS, found);
  return check.success
    ? { success: true as const, data: { keyId: values.keyId, endpoint: check.data } }
    : check;
};

export type TEndpointInput = { keyId: string; endpoint: TNewWebhookEndpoint };
