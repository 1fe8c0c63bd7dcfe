import { generateSchema } from '@anatine/zod-openapi';
import { describe, expect, it } from 'vitest';
import { idField, idFromText, MAX_ID, ZId, zId } from './common';

describe('the id schema', () => {
  it.each([1, 42, MAX_ID])('accepts %d', (id) => {
    expect(ZId.safeParse(id)).toEqual({ success: true, data: id });
  });

  it.each([0, -1, 1.5, MAX_ID + 1, '1', null])('refuses %j', (id) => {
    expect(ZId.safeParse(id).success).toBe(false);
  });

  it('says what is wrong in the words it is given, zod defaults otherwise', () => {
    const messages = {
      required: 'is required',
      notInteger: 'must be an integer',
      notPositive: 'must be a positive integer',
      outOfRange: 'must be a safe integer',
    };
    const id = zId(messages);
    const message = (value: unknown) => id.safeParse(value).error?.issues[0]?.message;
    expect(message(undefined)).toBe('is required');
    expect(message('7')).toBe('must be an integer');
    expect(message(1.5)).toBe('must be an integer');
    expect(message(0)).toBe('must be a positive integer');
    expect(message(MAX_ID + 1)).toBe('must be a safe integer');
    expect(ZId.safeParse(0).error?.issues[0]?.message).toBe(
      'Number must be greater than or equal to 1',
    );
  });

  it('is documented as int64 in OpenAPI, with its bounds', () => {
    expect(generateSchema(idField('An id.'))).toMatchObject({
      type: 'integer',
      format: 'int64',
      minimum: 1,
      maximum: MAX_ID,
      description: 'An id.',
    });
  });

  it('reads its decimal text form from a query or path, naming the parameter', () => {
    const petId = idFromText('petId', 'ID of the animal.');
    expect(petId.safeParse('42')).toEqual({ success: true, data: 42 });
    expect(petId.safeParse('4.2').error?.issues[0]?.message).toBe('petId must be an integer');
    expect(petId.safeParse('0').error?.issues[0]?.message).toBe('petId must be a positive integer');
    expect(petId.safeParse(String(MAX_ID + 1)).error?.issues[0]?.message).toBe(
      'petId is out of range',
    );
  });
});
