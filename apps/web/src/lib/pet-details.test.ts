import { PET_UNKNOWN_DETAILS } from '@pets/contract/schemas';
import { describe, expect, it } from 'vitest';
import {
  careLines,
  colorsInWords,
  feeInWords,
  goodWithLines,
  listInWords,
  specialNeedsText,
} from './pet-details';

const unknown = { ...PET_UNKNOWN_DETAILS };

describe('goodWithLines', () => {
  it('says who the animal is good with, who it is better without, and what nobody knows', () => {
    expect(
      goodWithLines({
        ...unknown,
        goodWithChildren: true,
        goodWithDogs: true,
        goodWithCats: false,
      }),
    ).toEqual([
      { mark: 'yes', text: 'Good with children and dogs' },
      { mark: 'no', text: 'Best in a home without cats' },
    ]);
    expect(goodWithLines({ ...unknown, goodWithDogs: false })).toEqual([
      { mark: 'no', text: 'Best in a home without dogs' },
      { mark: 'unknown', text: 'Not known yet: how it is with children and cats' },
    ]);
  });

  it('says nothing when nothing is known (the block is left out)', () => {
    expect(goodWithLines(unknown)).toEqual([]);
  });
});

describe('careLines', () => {
  it('says each known fact, yes or no, then energy and coat; unknowns are left out', () => {
    expect(
      careLines({
        ...unknown,
        houseTrained: true,
        spayedNeutered: false,
        energyLevel: 'high',
        coatLength: 'long',
      }),
    ).toEqual([
      { mark: 'yes', text: 'House-trained' },
      { mark: 'no', text: 'Not spayed or neutered yet' },
      { mark: 'yes', text: 'High energy: needs plenty of exercise and play every day' },
      { mark: 'yes', text: 'Long coat: needs regular brushing' },
    ]);
    expect(careLines(unknown)).toEqual([]);
  });
});

describe('the words', () => {
  it('lists as people do', () => {
    expect(listInWords([])).toBe('');
    expect(listInWords(['cats'])).toBe('cats');
    expect(listInWords(['children', 'dogs', 'cats'])).toBe('children, dogs and cats');
    expect(colorsInWords(['tan', 'white'])).toBe('Tan and white');
    expect(colorsInWords([])).toBeUndefined();
  });

  it('gives the special-needs note; none is a line of the care, unknown is nothing', () => {
    expect(specialNeedsText({ ...unknown, specialNeeds: true, specialNeedsNote: 'Deaf.' })).toBe(
      'Deaf.',
    );
    expect(specialNeedsText({ ...unknown, specialNeeds: true })).toBe(
      'Has special needs: ask the store about them.',
    );
    expect(specialNeedsText({ ...unknown, specialNeeds: false })).toBeUndefined();
    expect(careLines({ ...unknown, specialNeeds: false })).toEqual([
      { mark: 'yes', text: 'No special needs' },
    ]);
    expect(specialNeedsText(unknown)).toBeUndefined();
  });

  it("writes the fee in its currency's own digits, free for 0, ask the store for none", () => {
    expect(feeInWords({ amount: 9500, currency: 'EUR' })).toBe('€95.00');
    expect(feeInWords({ amount: 19500, currency: 'GBP' })).toBe('£195.00');
    expect(feeInWords({ amount: 500, currency: 'JPY' })).toBe('JP¥500');
    expect(feeInWords({ amount: 0, currency: 'GBP' })).toBe('Free to adopt');
    expect(feeInWords(null)).toBe('Ask the store');
  });
});
