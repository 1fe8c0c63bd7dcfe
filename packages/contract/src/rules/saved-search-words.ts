import type { TSavedSearchFilter } from '../site/schemas';
import { AGE_LABELS, COAT_LABELS, listInWords, SEX_LABELS, SIZE_LABELS } from './pet-words';

/**
 * A saved search's filter in plain words, for its pages, the staff's counts and the emails that
 * alert it (so the adopter reads the same words in each): "Young female dogs, good with children
 * and cats". Category names come from the caller (the API's list).
 */

const COMPANIONS = [
  ['goodWithChildren', 'children'],
  ['goodWithDogs', 'dogs'],
  ['goodWithCats', 'cats'],
] as const;

const YES_NO = [
  ['houseTrained', 'house-trained', 'not house-trained'],
  ['spayedNeutered', 'spayed or neutered', 'not spayed or neutered'],
  ['vaccinated', 'vaccinated', 'not vaccinated'],
  ['specialNeeds', 'with special needs', 'without special needs'],
] as const;

const feeInWords = (amount: number, currency: string): string => {
  if (amount === 0) {
    return 'free to adopt';
  }
  try {
    const money = new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(
      amount / 100,
    );
    return `adoption fee at most ${money}`;
  } catch {
    return `adoption fee at most ${amount / 100} ${currency}`;
  }
};

export const savedSearchInWords = (
  filter: TSavedSearchFilter,
  categoryName: (id: number) => string | undefined,
): string => {
  const kind =
    filter.categoryId === undefined
      ? 'animals'
      : (categoryName(filter.categoryId)?.toLowerCase() ?? 'animals of one category');
  const head = [
    filter.age ? AGE_LABELS[filter.age] : undefined,
    filter.sex && filter.sex !== 'unknown' ? SEX_LABELS[filter.sex] : undefined,
    filter.size ? SIZE_LABELS[filter.size] : undefined,
  ]
    .filter((word): word is string => word !== undefined)
    .map((word) => word.toLowerCase())
    .concat(kind)
    .join(' ');
  const goodWith = COMPANIONS.filter(([field]) => filter[field] === true).map(([, word]) => word);
  const without = COMPANIONS.filter(([field]) => filter[field] === false).map(([, word]) => word);
  const extras = [
    filter.name ? `named “${filter.name}”` : undefined,
    goodWith.length > 0 ? `good with ${listInWords(goodWith)}` : undefined,
    without.length > 0 ? `best without ${listInWords(without)}` : undefined,
    ...YES_NO.map(([field, yes, no]) =>
      filter[field] === undefined ? undefined : filter[field] ? yes : no,
    ),
    filter.energyLevel ? `${filter.energyLevel} energy` : undefined,
    filter.coatLength ? COAT_LABELS[filter.coatLength].split(':')[0]?.toLowerCase() : undefined,
    filter.feeMax !== undefined && filter.feeCurrency
      ? feeInWords(filter.feeMax, filter.feeCurrency)
      : undefined,
  ].filter((word): word is string => Boolean(word));
  const words = [head, ...extras].join(', ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
