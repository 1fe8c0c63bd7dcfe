import { describe, expect, it } from 'vitest';
import { fieldErrorsFromApi, readPetFormValues, toNewPetInput, validatePetForm } from './pet-form';

const values = (name: string, categoryId: string, status = 'available') => ({
  name,
  categoryId,
  status,
});

describe('validatePetForm (the contract ZNewPet)', () => {
  it('accepts a valid animal and trims its name', () => {
    expect(validatePetForm(values('  Biscuit ', '2', 'pending'))).toEqual({
      success: true,
      data: { name: 'Biscuit', categoryId: 2, status: 'pending' },
      input: { name: 'Biscuit', categoryId: 2, status: 'pending' },
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
    expect(toNewPetInput(values('Rex', '1', ''))).toEqual({ name: 'Rex', categoryId: 1 });
  });
});

describe('readPetFormValues', () => {
  it('reads the three fields as text', () => {
    const data = new FormData();
    data.set('name', 'Rex');
    data.set('categoryId', '4');
    expect(readPetFormValues(data)).toEqual({ name: 'Rex', categoryId: '4', status: '' });
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
