import { generateSchema } from '@anatine/zod-openapi';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idField, idFromText, MAX_ID, NOT_BLANK_PATTERN, nonBlankText, ZId, zId } from './common';

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

describe('a text that must say something', () => {
  it('refuses exactly the text that trimming empties, whatever the character', () => {
    const wrong: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += code < 0x10000 ? 1 : 0x100) {
      const character = String.fromCodePoint(code);
      if (NOT_BLANK_PATTERN.test(character) !== (character.trim() !== '')) {
        wrong.push(code.toString(16));
      }
    }
    expect(wrong).toEqual([]);
    // Read as the document's readers read it: with the `u` flag (ajv), and as JSON text.
    const unicode = new RegExp(NOT_BLANK_PATTERN.source, 'u');
    expect(['\u3000', '\ufeff', '\t\n \u00a0'].map((text) => unicode.test(text))).toEqual([
      false,
      false,
      false,
    ]);
    expect(['\u001c', '\u0085', 'x'].map((text) => unicode.test(text))).toEqual([true, true, true]);
  });

  it('is checked as sent, then trimmed; the document says so as its pattern', () => {
    const name = nonBlankText(z.string(), 'must not be empty').max(5, 'too long');
    expect(name.safeParse('  Rex  ')).toEqual({ success: true, data: 'Rex' });
    for (const blank of ['', ' ', '\u3000\t']) {
      expect(name.safeParse(blank).error?.issues.map(({ message }) => message)).toEqual([
        'must not be empty',
      ]);
    }
    expect(generateSchema(name)).toEqual({
      type: 'string',
      pattern: NOT_BLANK_PATTERN.source,
      maxLength: 5,
    });
  });
});
