import type { TDeclineReason } from './order';

/**
 * Each reason the store may give for declining an application: how staff pick it, and how the
 * adopter reads it (kindly: it is a "no" about one animal, never about them as people), on the
 * site's status page and in the email that tells them.
 */
export const DECLINE_REASON_WORDS: Record<TDeclineReason, { staff: string; adopter: string }> = {
  not_a_match: {
    staff: 'Not a match for this animal',
    adopter: 'The store felt this animal and your home were not the right match.',
  },
  home_not_suitable: {
    staff: 'Home not suitable for this animal',
    adopter: 'The store felt your home is not quite right for what this animal needs.',
  },
  incomplete_application: {
    staff: 'Application incomplete',
    adopter: 'Some details the store needed were missing from the application.',
  },
  no_response: {
    staff: 'No response from the adopter',
    adopter: 'The store could not reach you to take the application further.',
  },
  adopted_by_another_family: {
    staff: 'Adopted by another family',
    adopter: 'This animal has found a home with another family.',
  },
  other: {
    staff: 'Other (say why in the note)',
    adopter: 'The store could not take this application further.',
  },
};
