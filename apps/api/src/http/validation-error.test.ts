import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validationError } from './validation-error';

// docs/errors.md promises that no library's wording reaches a client. The contract gives most
// fields messages of its own; every issue kind zod can raise with its default message is put in
// our words here, so a schema added without messages still answers in them.

const ZOD_WORDING =
  /Expected|Invalid|Required|received|String must|Number must|Array must|Unrecognized/;

const detailsOf = (schema: z.ZodTypeAny, value: unknown, source: 'body' | 'query' = 'body') => {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return validationError({ [source]: result.error }).toBody().details ?? [];
};

describe('every zod issue kind in our words', () => {
  it.each<[string, z.ZodTypeAny, unknown, string]>([
    ['a missing field', z.object({ a: z.string() }), {}, 'is required'],
    ['a wrong type', z.object({ a: z.string() }), { a: 1 }, 'must be a string'],
    ['a number expected', z.object({ a: z.number() }), { a: 'x' }, 'must be a number'],
    ['an object expected', z.object({ a: z.object({}) }), { a: 1 }, 'must be a JSON object'],
    ['an enum value', z.object({ a: z.enum(['x', 'y']) }), { a: 'z' }, 'must be one of x, y'],
    [
      'an enum of another type',
      z.object({ a: z.enum(['x', 'y']) }),
      { a: 1 },
      'must be one of x, y',
    ],
    ['a literal', z.object({ a: z.literal('on') }), { a: 'off' }, 'must be "on"'],
    ['too short', z.object({ a: z.string().min(3) }), { a: 'x' }, 'must be at least 3 characters'],
    ['empty', z.object({ a: z.string().min(1) }), { a: '' }, 'must not be empty'],
    ['too long', z.object({ a: z.string().max(2) }), { a: 'xyz' }, 'must be at most 2 characters'],
    [
      'exact length',
      z.object({ a: z.string().length(2) }),
      { a: 'x' },
      'must be exactly 2 characters',
    ],
    ['too small', z.object({ a: z.number().min(5) }), { a: 1 }, 'must be at least 5'],
    ['not positive', z.object({ a: z.number().positive() }), { a: 0 }, 'must be greater than 0'],
    ['too big', z.object({ a: z.number().max(5) }), { a: 9 }, 'must be at most 5'],
    [
      'too few items',
      z.object({ a: z.array(z.number()).min(2) }),
      { a: [] },
      'must have at least 2 items',
    ],
    [
      'too many items',
      z.object({ a: z.array(z.number()).max(1) }),
      { a: [1, 2] },
      'must have at most 1 item',
    ],
    ['not an integer', z.object({ a: z.number().int() }), { a: 1.5 }, 'must be an integer'],
    [
      'not a multiple',
      z.object({ a: z.number().multipleOf(5) }),
      { a: 7 },
      'must be a multiple of 5',
    ],
    [
      'not finite',
      z.object({ a: z.number().finite() }),
      { a: Number.POSITIVE_INFINITY },
      'must be a finite number',
    ],
    ['an email', z.object({ a: z.string().email() }), { a: 'x' }, 'must be a valid email'],
    ['a date-time', z.object({ a: z.string().datetime() }), { a: 'x' }, 'must be a valid datetime'],
    [
      'a pattern',
      z.object({ a: z.string().regex(/^\d+$/) }),
      { a: 'x' },
      'is not in the expected format',
    ],
    ['a union', z.object({ a: z.union([z.string(), z.number()]) }), { a: true }, 'is not valid'],
    ['a refinement', z.object({ a: z.string().refine(() => false) }), { a: 'x' }, 'is not valid'],
    ['a date', z.object({ a: z.date() }), { a: new Date(Number.NaN) }, 'must be a valid date'],
  ])('%s', (_label, schema, value, message) => {
    const details = detailsOf(schema, value);
    expect(details).toEqual([{ field: 'a', message }]);
    expect(details[0]?.message).not.toMatch(ZOD_WORDING);
  });

  it('an unknown field is named', () => {
    expect(detailsOf(z.object({}).strict(), { b: 1 })).toEqual([
      { field: 'b', message: 'is not a known field' },
    ]);
  });

  it('a query parameter sent twice', () => {
    expect(detailsOf(z.object({ a: z.string() }), { a: ['x', 'y'] }, 'query')).toEqual([
      { field: 'query.a', message: 'must be given once' },
    ]);
  });

  it('a message the contract gives is kept', () => {
    expect(detailsOf(z.object({ a: z.string().min(1, 'name it') }), { a: '' })).toEqual([
      { field: 'a', message: 'name it' },
    ]);
  });
});
