import type { TErrorDetail } from '@pets/contract';
import { defaultErrorMap, type ZodError, type ZodIssue, ZodIssueCode } from 'zod';
import { AppError } from '../core/app-error';

type TSource = 'path' | 'query' | 'body';

const list = (values: readonly unknown[]): string => values.map(String).join(', ');

const A_TYPE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
  date: 'a date',
};

/**
 * "a string", "an integer"... for zod's type names; an enum's values (zod names the expected
 * type `'a' | 'b'` then) as a list.
 */
const expectedValue = (type: string): string => {
  const known = A_TYPE[type];
  if (known !== undefined) {
    return known;
  }
  const values = type.split(' | ').map((value) => value.replace(/^'|'$/g, ''));
  return values.length > 1 ? `one of ${values.join(', ')}` : 'of another type';
};

const items = (count: number): string => (count === 1 ? 'item' : 'items');

const sized = (
  issue: Extract<ZodIssue, { code: 'too_small' | 'too_big' }>,
  isMinimum: boolean,
): string => {
  const bound = Number('minimum' in issue ? issue.minimum : issue.maximum);
  const exact = issue.exact === true;
  const inclusive = issue.inclusive !== false;
  switch (issue.type) {
    case 'string':
      if (exact) {
        return `must be exactly ${bound} characters`;
      }
      if (isMinimum && bound === 1) {
        return 'must not be empty';
      }
      return `must be at ${isMinimum ? 'least' : 'most'} ${bound} characters`;
    case 'array':
    case 'set':
      if (exact) {
        return `must have exactly ${bound} ${items(bound)}`;
      }
      return `must have at ${isMinimum ? 'least' : 'most'} ${bound} ${items(bound)}`;
    default:
      if (exact) {
        return `must be exactly ${bound}`;
      }
      if (!inclusive) {
        return `must be ${isMinimum ? 'greater' : 'less'} than ${bound}`;
      }
      return `must be at ${isMinimum ? 'least' : 'most'} ${bound}`;
  }
};

/**
 * Our words for an issue that carries zod's own message (no message of the contract's): zod's
 * wording ("Invalid enum value. Expected ...", "Expected string, received array") is a library's
 * and never reaches a client (docs/errors.md). A repeated query parameter arrives as an array.
 */
const ourWords = (source: TSource, issue: ZodIssue): string => {
  switch (issue.code) {
    case ZodIssueCode.invalid_type:
      if (issue.received === 'undefined') {
        return 'is required';
      }
      if (issue.received === 'array' && source !== 'body') {
        return 'must be given once';
      }
      return `must be ${expectedValue(issue.expected)}`;
    case ZodIssueCode.invalid_enum_value:
      return `must be one of ${list(issue.options)}`;
    case ZodIssueCode.invalid_literal:
      return `must be ${JSON.stringify(issue.expected)}`;
    case ZodIssueCode.invalid_union_discriminator:
      return `must be one of ${list(issue.options)}`;
    case ZodIssueCode.invalid_string:
      return typeof issue.validation === 'string' && issue.validation !== 'regex'
        ? `must be a valid ${issue.validation}`
        : 'is not in the expected format';
    case ZodIssueCode.too_small:
      return sized(issue, true);
    case ZodIssueCode.too_big:
      return sized(issue, false);
    case ZodIssueCode.not_multiple_of:
      return `must be a multiple of ${String(issue.multipleOf)}`;
    case ZodIssueCode.not_finite:
      return 'must be a finite number';
    case ZodIssueCode.invalid_date:
      return 'must be a valid date';
    case ZodIssueCode.unrecognized_keys:
      return 'is not a known field';
    default:
      return 'is not valid';
  }
};

/** Whether the issue's message is zod's default for it, not one the contract gave. */
const hasZodMessage = (issue: ZodIssue): boolean =>
  issue.message === defaultErrorMap(issue, { defaultError: '', data: undefined }).message;

const messageOf = (source: TSource, issue: ZodIssue): string =>
  hasZodMessage(issue) ? ourWords(source, issue) : issue.message;

const issueDetails = (source: TSource, issue: ZodIssue): TErrorDetail[] => {
  const prefix = source === 'body' ? [] : [source];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      field: [...prefix, ...issue.path, key].join('.'),
      message: 'is not a known field',
    }));
  }
  const path = [...prefix, ...issue.path].join('.');
  if (path === '' && issue.code === 'invalid_type') {
    return [{ field: 'body', message: 'must be a JSON object' }];
  }
  return [{ field: path || source, message: messageOf(source, issue) }];
};

/**
 * Turns zod's findings about path, query and body into one `invalid_request` AppError with a
 * `details` entry per field, in that order (the path first: it names the resource), in our words.
 */
export const validationError = (errors: Partial<Record<TSource, ZodError | null>>): AppError => {
  const details = (['path', 'query', 'body'] as const).flatMap((source) =>
    (errors[source]?.issues ?? []).flatMap((issue) => issueDetails(source, issue)),
  );
  const message = details.map((detail) => `${detail.field}: ${detail.message}`).join('; ');
  return new AppError('invalid_request', message || 'The request is invalid.', details);
};
