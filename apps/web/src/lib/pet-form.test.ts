import { PET_UNKNOWN_DETAILS } from '@pets/contract/schemas';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_PET_FORM,
  fieldErrorsFromApi,
  petFormValues,
  readPetFormValues,
  toNewPetInput,
  validatePetForm,
} from './pet-form';

const values = (name: string, categoryId: string, status = 'available') => ({
  ...EMPTY_PET_FORM.values,
  name,
  categoryId,
  status,
});

/** The profile when nothing of it is known: every field null (the colours: none). */
const UNKNOWN_PROFILE = {
  sex: null,
  age: null,
  size: null,
  breed: null,
  arrivedAt: null,
  description: null,
  ...PET_UNKNOWN_DETAILS,
};

describe('validatePetForm (the contract ZNewPet)', () => {
  it('accepts a valid animal and trims its name', () => {
    expect(validatePetForm(values('  Biscuit ', '2', 'pending'))).toEqual({
      success: true,
      data: { name: 'Biscuit', categoryId: 2, status: 'pending', ...UNKNOWN_PROFILE },
      input: { name: 'Biscuit', categoryId: 2, status: 'pending', ...UNKNOWN_PROFILE },
    });
  });

  it('gives one sentence per invalid field', () => {
    expect(validatePetForm(values('   ', ''))).toEqual({
      success: false,
      fieldErrors: { name: 'Name must not be empty.', categoryId: 'Choose a category.' },
    });
    expect(validatePetForm(values('x'.repeat(101), '1'))).toEqual({
      success: false,
      fieldErrors: { name: 'Name must be at most 100 characters.' },
    });
    expect(validatePetForm(values('Rex', '1', 'adopted'))).toEqual({
      success: false,
      fieldErrors: { status: 'Choose a status.' },
    });
    expect(validatePetForm(values('Rex', 'abc'))).toEqual({
      success: false,
      fieldErrors: { categoryId: 'Choose a category.' },
    });
  });

  it('refuses a name the database cannot store, as the API does (the contract rule)', () => {
    expect(validatePetForm(values('Re\u0000x', '1'))).toEqual({
      success: false,
      fieldErrors: { name: 'Name must not contain the NUL character (U+0000).' },
    });
  });

  it('leaves out an unchosen status, so the API default applies', () => {
    expect(toNewPetInput(values('Rex', '1', ''))).toEqual({
      name: 'Rex',
      categoryId: 1,
      ...UNKNOWN_PROFILE,
    });
  });
});

describe('the profile fields', () => {
  const profile = {
    ...values('Biscuit', '1'),
    sex: 'male',
    age: 'young',
    size: 'medium',
    breed: '  Beagle mix ',
    arrivedAt: '2026-03-03',
    description: 'Loves walks.\n\nGood with cats.',
  };

  it('sends what is filled in (texts trimmed by the contract) and null for what is blank', () => {
    expect(validatePetForm(profile)).toMatchObject({
      success: true,
      data: {
        sex: 'male',
        age: 'young',
        size: 'medium',
        breed: 'Beagle mix',
        arrivedAt: '2026-03-03',
        description: 'Loves walks.\n\nGood with cats.',
      },
    });
    expect(toNewPetInput({ ...profile, breed: '   ', description: '' })).toMatchObject({
      breed: null,
      description: null,
    });
    // A browser sends a textarea's line breaks as CRLF.
    expect(toNewPetInput({ ...profile, description: 'One.\r\nTwo.\r\n\r\nThree.' })).toMatchObject({
      description: 'One.\nTwo.\n\nThree.',
    });
  });

  it('names the field with a problem, in words', () => {
    expect(validatePetForm({ ...profile, arrivedAt: '2026-02-30' })).toEqual({
      success: false,
      fieldErrors: { arrivedAt: 'Arrival date must be a real date written YYYY-MM-DD.' },
    });
    expect(validatePetForm({ ...profile, arrivedAt: '2999-01-01' })).toEqual({
      success: false,
      fieldErrors: { arrivedAt: 'Arrival date must not be in the future.' },
    });
    expect(validatePetForm({ ...profile, breed: 'x'.repeat(101) })).toEqual({
      success: false,
      fieldErrors: { breed: 'Breed must be at most 100 characters.' },
    });
    expect(validatePetForm({ ...profile, description: 'x'.repeat(2001) })).toEqual({
      success: false,
      fieldErrors: { description: 'Story must be at most 2000 characters.' },
    });
    expect(validatePetForm({ ...profile, size: 'huge', sex: 'both' })).toEqual({
      success: false,
      fieldErrors: { size: 'Choose one of the options.', sex: 'Choose one of the options.' },
    });
  });

  it("shows a stored animal's profile, unknowns blank", () => {
    expect(
      petFormValues({
        name: 'Rex',
        categoryId: 3,
        status: 'sold',
        ...UNKNOWN_PROFILE,
        age: 'senior',
      }),
    ).toEqual({ ...values('Rex', '3', 'sold'), age: 'senior' });
  });
});

describe('the details adopters ask about', () => {
  const detailed = {
    ...values('Juniper', '1'),
    goodWithChildren: 'yes',
    goodWithCats: 'no',
    specialNeeds: 'yes',
    specialNeedsNote: 'Deaf in one ear.\r\nApproach from the front.',
    energyLevel: 'high',
    coatLength: 'short',
    color1: 'black',
    color2: '',
    color3: 'white',
    adoptionFee: '1,195.5',
    feeCurrency: 'GBP',
  };

  it('sends yes and no as true and false, blanks as null, colours in order, the fee in pence', () => {
    expect(validatePetForm(detailed)).toMatchObject({
      success: true,
      data: {
        goodWithChildren: true,
        goodWithDogs: null,
        goodWithCats: false,
        specialNeeds: true,
        specialNeedsNote: 'Deaf in one ear.\nApproach from the front.',
        energyLevel: 'high',
        coatLength: 'short',
        colors: ['black', 'white'],
        adoptionFee: { amount: 119550, currency: 'GBP' },
      },
    });
    expect(toNewPetInput({ ...detailed, adoptionFee: '0' })).toMatchObject({
      adoptionFee: { amount: 0, currency: 'GBP' },
    });
    expect(toNewPetInput({ ...detailed, adoptionFee: '500', feeCurrency: 'JPY' })).toMatchObject({
      adoptionFee: { amount: 500, currency: 'JPY' },
    });
    expect(toNewPetInput({ ...detailed, adoptionFee: '  ' })).toMatchObject({ adoptionFee: null });
  });

  it('names the field with a problem, in words', () => {
    for (const fee of ['95.505', 'ninety', '-5', '9.5.0']) {
      expect(validatePetForm({ ...detailed, adoptionFee: fee })).toEqual({
        success: false,
        fieldErrors: {
          adoptionFee:
            'Write the fee as an amount, such as 95.00, or leave it blank to say "ask the store".',
        },
      });
    }
    expect(validatePetForm({ ...detailed, color3: 'black' })).toEqual({
      success: false,
      fieldErrors: { color1: 'Choose each colour once.' },
    });
    expect(validatePetForm({ ...detailed, color2: 'mauve', goodWithDogs: 'maybe' })).toEqual({
      success: false,
      fieldErrors: {
        goodWithDogs: 'Choose one of the options.',
        color2: 'Choose one of the options.',
      },
    });
    expect(validatePetForm({ ...detailed, adoptionFee: '5', feeCurrency: 'QQQ' })).toEqual({
      success: false,
      fieldErrors: { feeCurrency: 'Currency must be an ISO 4217 currency code, such as EUR.' },
    });
  });

  it("shows a stored animal's details as the form holds them", () => {
    expect(
      petFormValues({
        name: 'Rex',
        categoryId: 3,
        status: 'sold',
        ...UNKNOWN_PROFILE,
        goodWithDogs: false,
        vaccinated: true,
        colors: ['tan', 'white'],
        adoptionFee: { amount: 9550, currency: 'EUR' },
      }),
    ).toEqual({
      ...values('Rex', '3', 'sold'),
      goodWithDogs: 'no',
      vaccinated: 'yes',
      color1: 'tan',
      color2: 'white',
      adoptionFee: '95.50',
      feeCurrency: 'EUR',
    });
  });

  it("puts the API's details on the colours and the fee under their fields", () => {
    expect(
      fieldErrorsFromApi({
        code: 'invalid_request',
        message: 'bad',
        status: 400,
        details: [
          { field: 'colors.1', message: 'Invalid enum value' },
          {
            field: 'adoptionFee.currency',
            message: 'must be an ISO 4217 currency code, such as EUR',
          },
          { field: 'adoptionFee.amount', message: 'must be at most 10000000' },
        ],
      }),
    ).toEqual({
      color2: 'Choose one of the options.',
      feeCurrency: 'Currency must be an ISO 4217 currency code, such as EUR.',
      adoptionFee: 'Adoption fee must be at most 10000000.',
    });
  });
});

describe('readPetFormValues', () => {
  it('reads every field as text, a missing one as blank', () => {
    const data = new FormData();
    data.set('name', 'Rex');
    data.set('categoryId', '4');
    data.set('breed', 'Terrier');
    expect(readPetFormValues(data)).toEqual({
      ...values('Rex', '4', ''),
      breed: 'Terrier',
      feeCurrency: '',
    });
  });
});

describe('fieldErrorsFromApi', () => {
  it('puts each detail under the field it names', () => {
    expect(
      fieldErrorsFromApi({
        code: 'invalid_request',
        message: 'categoryId: no category has id 999',
        status: 400,
        details: [
          { field: 'categoryId', message: 'no category has id 999' },
          { field: 'body.name', message: 'must not be empty' },
          { field: 'query.limit', message: 'ignored' },
        ],
      }),
    ).toEqual({ categoryId: 'No category has id 999.', name: 'Name must not be empty.' });
  });

  it('is empty without details', () => {
    expect(fieldErrorsFromApi({ code: 'invalid_request', message: 'bad', status: 400 })).toEqual(
      {},
    );
  });
});
