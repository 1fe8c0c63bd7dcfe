import { COAT_LABELS, listInWords } from '@pets/contract/rules';
import type { TAdoptionFee, TPetColor, TPetDetails, TPetEnergyLevel } from '@pets/contract/schemas';

/**
 * The details adopters ask about (issue 28) in plain words, for the animal page's "Good with /
 * Needs" block: each line is a sentence with a mark (`yes`, `no` or `unknown`) the page draws as
 * an icon beside the words, never instead of them. What nobody knows is said as such ("Not known
 * yet: cats"), once, rather than left out: an adopter with a cat needs to know that nobody has
 * tried.
 */

export type TDetailMark = 'yes' | 'no' | 'unknown';
export type TDetailLine = { mark: TDetailMark; text: string };

type TDetails = TPetDetails;

const COMPANIONS = [
  ['goodWithChildren', 'children'],
  ['goodWithDogs', 'dogs'],
  ['goodWithCats', 'cats'],
] as const;

export { COAT_LABELS, listInWords };

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Good with (yes), better without (no), not known yet (unknown): at most one line of each. */
export const goodWithLines = (pet: TDetails): TDetailLine[] => {
  const of = (value: boolean | null) =>
    COMPANIONS.filter(([field]) => pet[field] === value).map(([, words]) => words);
  const yes = of(true);
  const no = of(false);
  const unknown = of(null);
  return [
    ...(yes.length > 0 ? [{ mark: 'yes' as const, text: `Good with ${listInWords(yes)}` }] : []),
    ...(no.length > 0
      ? [{ mark: 'no' as const, text: `Best in a home without ${listInWords(no)}` }]
      : []),
    ...(unknown.length > 0 && unknown.length < COMPANIONS.length
      ? [
          {
            mark: 'unknown' as const,
            text: `Not known yet: how it is with ${listInWords(unknown)}`,
          },
        ]
      : []),
  ];
};

const CARE = [
  ['houseTrained', 'House-trained', 'Not house-trained yet'],
  ['spayedNeutered', 'Spayed or neutered', 'Not spayed or neutered yet'],
  ['vaccinated', 'Vaccinations up to date', 'Vaccinations not up to date'],
] as const;

export const ENERGY_LABELS: Record<TPetEnergyLevel, string> = {
  low: 'Low energy: short walks and long naps',
  medium: 'Medium energy: daily walks and some play',
  high: 'High energy: needs plenty of exercise and play every day',
};

/**
 * Care and character: what is known of house-training, neutering, vaccinations, "no special needs"
 * (the needs themselves are a panel of their own), energy and coat.
 */
export const careLines = (pet: TDetails): TDetailLine[] => [
  ...CARE.flatMap(([field, yes, no]) =>
    pet[field] === null
      ? []
      : [{ mark: pet[field] ? ('yes' as const) : ('no' as const), text: pet[field] ? yes : no }],
  ),
  ...(pet.specialNeeds === false ? [{ mark: 'yes' as const, text: 'No special needs' }] : []),
  ...(pet.energyLevel ? [{ mark: 'yes' as const, text: ENERGY_LABELS[pet.energyLevel] }] : []),
  ...(pet.coatLength ? [{ mark: 'yes' as const, text: COAT_LABELS[pet.coatLength] }] : []),
];

/** "Tan and white", or undefined when no colour is recorded. */
export const colorsInWords = (colors: readonly TPetColor[]): string | undefined =>
  colors.length === 0 ? undefined : capitalised(listInWords(colors));

/** The special needs, when the animal has them: the store's note, or a word to ask about them. */
export const specialNeedsText = (pet: TDetails): string | undefined =>
  pet.specialNeeds === true
    ? (pet.specialNeedsNote ?? 'Has special needs: ask the store about them.')
    : undefined;

/**
 * The fee as people read it, in the currency's own digits (`9500` EUR: "€95.00", `500` JPY:
 * "¥500"): "Free to adopt" for `0`, and "Ask the store" when the store has not said.
 */
export const feeInWords = (fee: TAdoptionFee | null, locale = 'en-GB'): string => {
  if (fee === null) {
    return 'Ask the store';
  }
  if (fee.amount === 0) {
    return 'Free to adopt';
  }
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: fee.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(fee.amount / 10 ** digits);
};
