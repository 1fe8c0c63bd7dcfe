import type { TPetAge, TPetCoatLength, TPetSex, TPetSize } from '../schemas/pet';

/**
 * An animal's profile in words, as the site shows it and the API's emails say it (a saved search
 * named in its alert). Here, without zod, so the site's browser bundle can import them.
 */

export const SEX_LABELS: Record<TPetSex, string> = {
  female: 'Female',
  male: 'Male',
  unknown: 'Sex not known',
};

export const AGE_LABELS: Record<TPetAge, string> = {
  baby: 'Baby',
  young: 'Young',
  adult: 'Adult',
  senior: 'Senior',
};

export const SIZE_LABELS: Record<TPetSize, string> = {
  small: 'Small',
  medium: 'Medium',
  large: 'Large',
  xlarge: 'Extra large',
};

export const COAT_LABELS: Record<TPetCoatLength, string> = {
  hairless: 'Hairless',
  short: 'Short coat',
  medium: 'Medium coat',
  long: 'Long coat: needs regular brushing',
};

/** "children", "children and dogs", "children, dogs and cats". */
export const listInWords = (words: readonly string[]): string =>
  words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
