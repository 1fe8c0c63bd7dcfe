'use server';

import { isEmailAddress } from '@pets/contract/rules';
import { ZSavedSearchFilter } from '@pets/contract/site';
import { redirect } from 'next/navigation';
import { textOf } from '@/lib/account-forms';
import { visitorLimits } from '@/lib/limits';
import { sameSitePath } from '@/lib/return-path';
import { confirmSavedSearch, saveSearch, unsubscribeSavedSearch } from '@/lib/site-api';
import { currentVisitor } from '@/lib/visitor';

/**
 * Saved searches' forms (issue 28): "Email me when a new animal matches" on the result pages, and
 * the buttons of the confirm and unsubscribe pages.
 */

export type TSaveSearchState = { email: string; error?: string; sentTo?: string };

const UNREACHABLE = "We can't reach our records right now. Please try again in a minute.";

/**
 * Saves the search of the page (its listPets filter, a hidden field) for an address; the API
 * emails the confirmation link. Each visitor may save SAVED-SEARCH searches an hour; the API
 * limits each address too, in its own words.
 */
export const saveSearchAlert = async (
  _previous: TSaveSearchState,
  data: FormData,
): Promise<TSaveSearchState> => {
  const email = textOf(data, 'email').trim().slice(0, 254);
  if (!isEmailAddress(email)) {
    return { email, error: 'Enter your email address, like name@example.com.' };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(textOf(data, 'filter').slice(0, 4000) || '{}');
  } catch {
    raw = undefined;
  }
  const filter = ZSavedSearchFilter.safeParse(raw);
  if (!filter.success) {
    return { email, error: 'This search cannot be saved. Change the filters and try again.' };
  }
  const visitor = await currentVisitor();
  const allowed = await visitorLimits().consume('saved-search', visitor.key);
  if (!allowed.ok) {
    return {
      email,
      error: 'Several searches were saved from here already. Please try again in an hour.',
    };
  }
  const answer = await saveSearch({ email, filter: filter.data });
  if (!answer.ok) {
    const failure = answer.failure;
    if (failure.kind === 'throttled' && failure.message) {
      return { email, error: failure.message };
    }
    // Nothing was saved: the attempt does not count against the visitor.
    await visitorLimits().reward('saved-search', visitor.key);
    if (failure.kind === 'refused' || failure.kind === 'invalid') {
      return { email, error: 'Check your email address and try again.' };
    }
    return {
      email,
      error:
        failure.kind === 'rate-limited' || failure.kind === 'throttled'
          ? 'We are getting a lot of requests. Please try again in a minute.'
          : UNREACHABLE,
    };
  }
  return { email: '', sentTo: email };
};

export type TLinkButtonState = { error?: string };

const BAD_LINK =
  'This link is not valid: it may have expired, or been copied only in part. Save the search again to get a new one.';

/** The confirm page's button: opening the link confirmed nothing, this POST does. */
export const confirmSearchAlert = async (
  _previous: TLinkButtonState,
  data: FormData,
): Promise<TLinkButtonState> => {
  const token = textOf(data, 'token').slice(0, 64);
  const answer = await confirmSavedSearch(token);
  if (!answer.ok) {
    return {
      error:
        answer.failure.kind === 'refused' || answer.failure.kind === 'invalid'
          ? BAD_LINK
          : UNREACHABLE,
    };
  }
  // The token came with the form: its page only through the site's return-path rule.
  redirect(sameSitePath(`/saved-searches/confirm/${encodeURIComponent(token)}?confirmed=1`) ?? '/');
};

/** The unsubscribe page's button (mail clients' one-click POST is one-click/route.ts). */
export const unsubscribeSearchAlert = async (
  _previous: TLinkButtonState,
  data: FormData,
): Promise<TLinkButtonState> => {
  const token = textOf(data, 'token').slice(0, 64);
  const answer = await unsubscribeSavedSearch(token);
  if (!answer.ok) {
    return {
      error:
        answer.failure.kind === 'refused' || answer.failure.kind === 'invalid'
          ? 'This link is not valid: it may have been copied only in part. Use the link of the latest email.'
          : UNREACHABLE,
    };
  }
  redirect(sameSitePath(`/saved-searches/unsubscribe/${encodeURIComponent(token)}?done=1`) ?? '/');
};
