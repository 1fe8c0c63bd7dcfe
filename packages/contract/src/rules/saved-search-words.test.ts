import { describe, expect, it } from 'vitest';
import { savedSearchInWords } from './saved-search-words';

const names = (id: number) => ({ 1: 'Dogs', 2: 'Cats' })[id];

describe('savedSearchInWords', () => {
  it('says an empty filter as every animal', () => {
    expect(savedSearchInWords({}, names)).toBe('Animals');
  });

  it('puts the profile before the kind, the details after', () => {
    expect(
      savedSearchInWords(
        { categoryId: 1, age: 'young', sex: 'female', goodWithChildren: true, goodWithCats: true },
        names,
      ),
    ).toBe('Young female dogs, good with children and cats');
  });

  it('says the name, the nos, the energy, the coat and the fee in words', () => {
    expect(
      savedSearchInWords(
        {
          categoryId: 2,
          name: 'bis',
          goodWithDogs: false,
          houseTrained: true,
          energyLevel: 'low',
          coatLength: 'long',
          feeMax: 5000,
          feeCurrency: 'GBP',
        },
        names,
      ),
    ).toBe(
      'Cats, named “bis”, best without dogs, house-trained, low energy, long coat, adoption fee at most £50.00',
    );
    expect(savedSearchInWords({ feeMax: 0, feeCurrency: 'EUR' }, names)).toBe(
      'Animals, free to adopt',
    );
  });

  it('says a category it cannot name without its id', () => {
    expect(savedSearchInWords({ categoryId: 9 }, names)).toBe('Animals of one category');
  });
});
