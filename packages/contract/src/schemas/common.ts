import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

import { EMAIL_MAX_LENGTH, EMAIL_MESSAGE, EMAIL_PATTERN } from '../rules/email';
import { MAX_ID, PAGE_SIZE } from '../rules/values';

export { MAX_ID, PAGE_SIZE };

/** Messages of an id that fails; zod's defaults where one is not given. */
export type TIdMessages = {
  required?: string;
  notInteger?: string;
  notPositive?: string;
  outOfRange?: string;
};

/**
 * A positive int64 identifier, restricted to JavaScript's safe range so that every JSON parser
 * reads it exactly. The one place the chain is written; callers name the field in its messages.
 */
export const zId = (messages: TIdMessages = {}) =>
  z
    .number({ required_error: messages.required, invalid_type_error: messages.notInteger })
    .int(messages.notInteger)
    .min(1, messages.notPositive)
    .max(MAX_ID, messages.outOfRange);

export const ZId = zId();

/**
 * An email address (rules/email.ts): the one schema of every address the API and the site accept.
 * Not trimmed: what is sent is what is checked, and what the OpenAPI document's `pattern` says
 * (its `maxLength` and `pattern`, and no `format: email`, which each validator reads its own way).
 */
export const ZEmailAddress = z
  .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .regex(EMAIL_PATTERN, EMAIL_MESSAGE);

/**
 * An id documented as an int64 field. The OpenAPI metadata goes on with `extendApi`: zod's
 * `.describe()` would drop the `format`.
 */
export const idField = (description: string, messages?: TIdMessages) =>
  extendApi(zId(messages), { format: 'int64', description });

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Query strings and path segments arrive as text. Only a plain decimal integer becomes a number;
 * anything else ("1.5", "1e3", "0x10", " 7", "") is passed on unchanged so the number schema rejects
 * it with a clear message instead of guessing.
 */
const toIntegerIfDecimal = (value: unknown): unknown =>
  typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value;

/**
 * An integer read from a query string or a path segment. Callers of the typed client pass a
 * number; the server also accepts its decimal text form.
 */
export const integerFromText = <T extends z.ZodNumber>(schema: T) =>
  z.preprocess(toIntegerIfDecimal, schema) as unknown as z.ZodEffects<T, number, number>;

export const ZLimitQuery = extendApi(
  integerFromText(
    z
      .number({ invalid_type_error: 'limit must be an integer' })
      .int('limit must be an integer')
      .min(PAGE_SIZE.min, `limit must be at least ${PAGE_SIZE.min}`)
      .max(PAGE_SIZE.max, `limit must be at most ${PAGE_SIZE.max}`),
  ).default(PAGE_SIZE.default),
  {
    format: 'int32',
    description: `Maximum number of items to return, from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}.`,
  },
);

export const ZCursorQuery = extendApi(
  z.string().min(1, 'cursor must not be empty').max(200, 'cursor is too long').optional(),
  {
    description:
      'Opaque cursor from the `rel="next"` link of a previous page: the items after that page. ' +
      'It carries the filters of its list, so send it alone or with the same filters; a ' +
      'different filter is refused (`400`).',
  },
);

/**
 * An id read from a query string or a path segment (see integerFromText), documented as int64.
 * Its messages start with the parameter's name, since a query or path issue has no field path.
 */
export const idFromText = (name: string, description: string) =>
  extendApi(
    integerFromText(
      zId({
        notInteger: `${name} must be an integer`,
        notPositive: `${name} must be a positive integer`,
        outOfRange: `${name} is out of range`,
      }),
    ),
    { format: 'int64', description },
  );

/** A UTF-16 surrogate without its other half: no Unicode character, and not valid UTF-8 text. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why PostgreSQL would refuse (or silently alter) a text value, or undefined when it is fine:
 * `text` cannot hold the NUL character (22021), and an unpaired surrogate (`"\uD800"` in JSON)
 * is no character at all. Shared by the site and the API so both say the same.
 */
export const unstorableTextReason = (text: string): string | undefined => {
  if (text.includes('\u0000')) {
    return 'must not contain the NUL character (U+0000)';
  }
  if (UNPAIRED_SURROGATE.test(text)) {
    return 'must be valid Unicode: it contains an unpaired surrogate (U+D800 to U+DFFF)';
  }
  return undefined;
};

/**
 * A string schema that also refuses text the database cannot store (see unstorableTextReason):
 * every free-text field of a request body goes through it.
 */
export const storableText = (schema: z.ZodString) =>
  schema.superRefine((value, context) => {
    const reason = unstorableTextReason(value);
    if (reason !== undefined) {
      context.addIssue({ code: z.ZodIssueCode.custom, message: reason });
    }
  });

/**
 * The characters `String.prototype.trim` removes (ECMAScript's WhiteSpace and LineTerminator),
 * spelled out: `\s` is another set in another regex engine (Python's adds U+001C to U+001F and
 * U+0085 and leaves U+FEFF out), and every fuzzer and validator reads the document's pattern with
 * its own.
 */
const TRIMMED_CHARACTERS =
  '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** Text with a character that trimming keeps: something besides spaces. */
export const NOT_BLANK_PATTERN = new RegExp(`[^${TRIMMED_CHARACTERS}]`);

/**
 * A text that must say something, the one schema of every such field of a request (a name, a
 * note): refused with `message` when it is empty or only spaces, which the OpenAPI document states
 * as its `pattern`, checked on the text as sent; then trimmed. The caller adds the length.
 */
export const nonBlankText = (schema: z.ZodString, message: string) =>
  schema.regex(NOT_BLANK_PATTERN, message).trim();

/** An RFC 3339 instant in UTC with milliseconds, as the API writes them: 24 characters. */
export const instant = (description: string) => z.string().datetime().max(24).describe(description);

/** An instant in a cursor: its milliseconds since 1970 (the cursor's text has no `:`). */
export const instantFilter = {
  write: (value: string) => String(Date.parse(value)),
  read: (text: string) =>
    /^-?\d{1,15}$/.test(text) && !Number.isNaN(new Date(Number(text)).getTime())
      ? new Date(Number(text)).toISOString()
      : undefined,
};

export const ZUpdatedSinceQuery = extendApi(
  z
    .string()
    // The longest RFC 3339 date-time worth sending: nanoseconds and an offset are 35 characters.
    .max(40, 'must be at most 40 characters')
    .datetime({
      offset: true,
      message: 'must be an RFC 3339 date-time, such as 2026-11-27T10:00:00Z',
    })
    .refine((text) => !Number.isNaN(Date.parse(text)), 'must be a real date-time'),
  {
    description:
      'Only items whose `updatedAt` is at or after this instant (RFC 3339, such as ' +
      '`2026-11-27T10:00:00Z`, any offset; kept to the millisecond). With `sort=updatedAt`, the ' +
      'incremental sync: docs/api.md, "Keeping in sync".',
  },
);
