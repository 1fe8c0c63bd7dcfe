import 'server-only';
import { redirect } from 'next/navigation';
import { PORTAL_SESSION_EXPIRED_PATH } from './session';
import type { TSiteFailure } from './site-api';

/** The portal's words for `email_not_confirmed` (the dashboard offers the link again). */
export const UNCONFIRMED =
  'Confirm your email address first: open the link we emailed you, or have it sent again from your dashboard.';

/**
 * What a portal form says when the API refused or failed it: the portal's sign-in when the
 * session ended, else the API's own words, or ours for what the person can do about it.
 */
export const portalActionFailure = (
  failure: TSiteFailure,
  words: { refused: string; notFound: string },
): string => {
  switch (failure.kind) {
    case 'signed-out':
      redirect(PORTAL_SESSION_EXPIRED_PATH);
      break;
    case 'refused':
      return failure.code === 'email_not_confirmed'
        ? UNCONFIRMED
        : failure.message || words.refused;
    case 'invalid':
      return failure.error.message || 'Check the fields of the form.';
    case 'rate-limited':
    case 'throttled':
      return `We're getting a lot of requests. Try again in ${failure.retryAfterSeconds} seconds.`;
    case 'not-found':
      return words.notFound;
    default:
      return "We can't reach our records right now. Please try again in a minute.";
  }
  return 'Something went wrong on our side. Please try again.';
};
