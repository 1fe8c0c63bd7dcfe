import {
  ADOPTER_NAME_MAX_LENGTH,
  ORDER_MESSAGE_MAX_LENGTH,
  ORDER_OTHER_ANIMALS_MAX_LENGTH,
} from '@pets/contract/schemas';
import { describe, expect, it } from 'vitest';
import {
  adoptFieldErrorsFromApi,
  EMPTY_ADOPT_VALUES,
  readAdoptFormValues,
  toNewOrderInput,
  validateAdoptForm,
} from './adopt-form';

const ada = { ...EMPTY_ADOPT_VALUES, name: 'Ada Lovelace', email: 'ada@example.org' };

describe('the apply form', () => {
  it('reads the six fields as text, missing ones as empty', () => {
    const data = new FormData();
    data.set('name', 'Ada');
    data.set('email', 'ada@example.org');
    expect(readAdoptFormValues(data)).toEqual({
      name: 'Ada',
      email: 'ada@example.org',
      phone: '',
      household: '',
      otherAnimals: '',
      message: '',
    });
  });

  it('leaves an empty phone and empty answers out of the order', () => {
    expect(
      toNewOrderInput(7, { ...ada, phone: ' ', household: ' ', otherAnimals: '', message: '' }),
    ).toEqual({
      petId: 7,
      adopter: { name: 'Ada Lovelace', email: 'ada@example.org' },
    });
  });

  it("accepts what the contract's ZNewOrder accepts, trimmed as it trims", () => {
    const result = validateAdoptForm(7, {
      name: ' Ada ',
      email: 'ada@example.org',
      phone: '+44 20 7946 0958',
      household: ' Two adults ',
      otherAnimals: 'A cat',
      message: ' We have a garden. ',
    });
    expect(result).toEqual({
      success: true,
      data: {
        petId: 7,
        adopter: { name: 'Ada', email: 'ada@example.org', phone: '+44 20 7946 0958' },
        household: 'Two adults',
        otherAnimals: 'A cat',
        message: 'We have a garden.',
      },
    });
  });

  it('puts a plain sentence under each field the contract refuses', () => {
    const result = validateAdoptForm(7, {
      ...EMPTY_ADOPT_VALUES,
      email: 'ada',
      phone: 'call me',
      otherAnimals: 'x'.repeat(ORDER_OTHER_ANIMALS_MAX_LENGTH + 1),
    });
    expect(result).toEqual({
      success: false,
      fieldErrors: {
        name: 'Enter your name.',
        email: 'Enter an email address like name@example.org.',
        phone: 'Phone must be digits, spaces and ( ) - . with an optional leading +.',
        otherAnimals: `Other animals at home must be at most ${ORDER_OTHER_ANIMALS_MAX_LENGTH} characters.`,
      },
    });
    const empty = validateAdoptForm(7, EMPTY_ADOPT_VALUES);
    expect(empty.success ? {} : empty.fieldErrors).toEqual({
      name: 'Enter your name.',
      email: 'Enter your email address.',
    });
    const long = validateAdoptForm(7, {
      ...ada,
      name: 'x'.repeat(ADOPTER_NAME_MAX_LENGTH + 1),
      message: 'x'.repeat(ORDER_MESSAGE_MAX_LENGTH + 1),
    });
    expect(long.success ? {} : long.fieldErrors).toEqual({
      name: `Your name must be at most ${ADOPTER_NAME_MAX_LENGTH} characters.`,
      message: `Your message must be at most ${ORDER_MESSAGE_MAX_LENGTH} characters.`,
    });
  });

  it("maps the API's 400 details to the fields they name", () => {
    expect(
      adoptFieldErrorsFromApi({
        code: 'invalid_request',
        message: 'invalid',
        status: 400,
        details: [
          { field: 'body.adopter.email', message: 'must be a valid email address' },
          { field: 'message', message: 'must be at most 1000 characters' },
          { field: 'petId', message: 'must be a positive integer' },
        ],
      } as never),
    ).toEqual({
      email: 'Enter an email address like name@example.org.',
      message: 'Your message must be at most 1000 characters.',
    });
  });
});
