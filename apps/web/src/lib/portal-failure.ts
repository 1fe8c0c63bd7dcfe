import 'server-only';
import { redirect } from 'next/navigation';
import { fieldErrorsOf, issuesOfApi, type TFieldWords, type TFormWords } from './form-issues';
import { waitInWords } from './messages';
import { PORTAL_SESSION_EXPIRED_PATH } from './session';
import type { TSiteFailure } from './site-api';

/** The portal's words for `email_not_confirmed` (the dashboard offers the link again). */
export const UNCONFIRMED =
  'Confirm your email address first: open the link we emailed you, or have it sent again from your dashboard.';

/** A portal form's own words for the refusals it can meet. */
export type TPortalWords<TField extends string = never> = {
  /** A refusal that is about none of the form's fields (403, 409), when the API gave no words. */
  refused: string;
  notFound: string;
  /** The form's words for its fields, which the API's `400` details name (`body.url`). */
  form?: TFormWords<TField>;
  /**
   * Words for the inputs a `400` may name that are no field the person filled in (the key of the
   * page's address): said about the whole form.
   */
  whole?: Readonly<Record<string, TFieldWords>>;
};

/** What went wrong, for the page: under the fields it is about, or about the whole form. */
export type TPortalRefusal<TField extends string> = {
  fieldErrors: Partial<Record<TField, string>>;
  formError?: string;
};

const NOT_ACCEPTED = 'Some of the details were not accepted. Please check them and try again.';

/**
 * What a portal form says when the API refused or failed it: the portal's sign-in when the
 * session ended; a `400` under the fields its details name, in the form's words (never the
 * validator's text: "body.url: must be an https URL"); the API's own sentence for a refusal of
 * the whole request (its 403 and 409 messages are written for people); ours for the rest.
 */
export const portalRefusal = <TField extends string = never>(
  failure: TSiteFailure,
  words: TPortalWords<TField>,
): TPortalRefusal<TField> => {
  switch (failure.kind) {
    case 'signed-out':
      return redirect(PORTAL_SESSION_EXPIRED_PATH);
    case 'refused':
    case 'invalid': {
      const isInvalid = failure.kind === 'invalid' || failure.status === 400;
      if (failure.kind === 'refused' && failure.code === 'email_not_confirmed') {
        return { fieldErrors: {}, formError: UNCONFIRMED };
      }
      if (!isInvalid) {
        return { fieldErrors: {}, formError: failure.message || words.refused };
      }
      const issues = issuesOfApi(
        failure.kind === 'invalid' ? failure.error.details : failure.details,
      );
      const fieldErrors = words.form ? fieldErrorsOf(issues, words.form) : {};
      if (Object.keys(fieldErrors).length > 0) {
        return { fieldErrors };
      }
      const whole = words.whole ? fieldErrorsOf(issues, { fields: words.whole }) : {};
      return { fieldErrors, formError: Object.values(whole)[0] ?? NOT_ACCEPTED };
    }
    case 'rate-limited':
    case 'throttled':
      return {
        fieldErrors: {},
        formError: `We're getting a lot of requests. Try again in ${waitInWords(failure.retryAfterSeconds)}.`,
      };
    case 'not-found':
      return { fieldErrors: {}, formError: words.notFound };
    case 'unavailable':
      return {
        fieldErrors: {},
        formError: "We can't reach our records right now. Please try again in a minute.",
      };
    default:
      return { fieldErrors: {}, formError: 'Something went wrong on our side. Please try again.' };
  }
};

/** The same, in one sentence: for a button whose refusal shows on the page it goes back to. */
export const portalActionFailure = (failure: TSiteFailure, words: TPortalWords): string =>
  portalRefusal(failure, words).formError ?? NOT_ACCEPTED;
