import type { TPet } from '@pets/contract/schemas';
import { storeCalendarDate } from '@pets/contract/store';
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from './profile-labels';

/**
 * An animal's profile in plain words, for the cards, the animal page and the filters:
 * "Young · Female · Medium · Arrived 3 March". What is not known is left out, never shown as
 * "unknown".
 */

export { AGE_LABELS, SEX_LABELS, SIZE_LABELS };

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A calendar date (`YYYY-MM-DD`, the store's own calendar) as people say it: "3 March", with the
 * year when it is not this year at the store ("3 March 2025"; `timeZone` is the store's). Undefined
 * for anything that is not such a date.
 */
export const formatArrivalDate = (
  date: string,
  today: Date = new Date(),
  timeZone = 'UTC',
): string | undefined => {
  const match = CALENDAR_DATE.exec(date);
  if (!match) {
    return undefined;
  }
  const [, year, month, day] = match;
  const at = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== date) {
    return undefined;
  }
  const isThisYear = year === storeCalendarDate(today, timeZone).slice(0, 4);
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    ...(isThisYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(at);
};

type TProfile = Pick<TPet, 'age' | 'sex' | 'size' | 'arrivedAt'>;

/** The known attributes, in the order people ask about them. */
export const profileFacts = (
  pet: TProfile,
  today: Date = new Date(),
  timeZone = 'UTC',
): string[] => {
  const arrived = pet.arrivedAt ? formatArrivalDate(pet.arrivedAt, today, timeZone) : undefined;
  return [
    pet.age ? AGE_LABELS[pet.age] : undefined,
    pet.sex && pet.sex !== 'unknown' ? SEX_LABELS[pet.sex] : undefined,
    pet.size ? SIZE_LABELS[pet.size] : undefined,
    arrived ? `Arrived ${arrived}` : undefined,
  ].filter((fact): fact is string => fact !== undefined);
};

/** "Young · Female · Medium · Arrived 3 March", or an empty text when nothing is known. */
export const profileLine = (pet: TProfile, today: Date = new Date(), timeZone = 'UTC'): string =>
  profileFacts(pet, today, timeZone).join(' · ');

/**
 * The animal's story as paragraphs: the API keeps its line breaks; a blank line starts a new
 * paragraph and a single break stays a break inside one (the page shows it with `pre-line`).
 */
export const storyParagraphs = (description: string | null | undefined): string[] =>
  (description ?? '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n\s*/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');

/**
 * "3 applications in review": how many people have applied, without who. The page shows nothing
 * at 0 (an animal nobody has applied for yet needs no line saying so).
 */
export const applicationsInReviewText = (count: number): string =>
  count === 1 ? '1 application in review' : `${count} applications in review`;
