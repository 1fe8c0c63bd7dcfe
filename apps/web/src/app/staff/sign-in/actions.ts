'use server';

import { redirect } from 'next/navigation';
import { visitorLimits } from '@/lib/limits';
import { rateLimitedMessage } from '@/lib/messages';
import { endEverySession, endSession, safeReturnPath, startSession } from '@/lib/session';
import { describeKey } from '@/lib/staff-api';
import { currentVisitor } from '@/lib/visitor';

/** What the sign-in form shows after a refusal. Never the key that was typed. */
export type TSignInState = { error?: string };

const REFUSED = 'That key was not accepted: it is wrong, or it has been revoked.';

const tooManyAttempts = (seconds: number): TSignInState => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return {
    error: `Too many keys were refused. To protect the site, please wait ${minutes} ${
      minutes === 1 ? 'minute' : 'minutes'
    } before trying again.`,
  };
};

/** Longer than any key the API issues; anything longer is not sent anywhere. */
const KEY_MAX_LENGTH = 200;

/** The site-wide count of refused keys is kept per key prefix: pets_live_, pets_test_, other. */
const prefixOf = (apiKey: string): string => /^pets_(live|test)_/.exec(apiKey)?.[0] ?? 'other';

/**
 * Signs a staff member in: the API says what the key is (GET /v1/me, told which visitor asks);
 * only a writable staff key starts a session. Partner, read-only, revoked and unknown keys are
 * refused in plain words. Each visitor may have SIGN-IN refusals per window (docs/site.md, "Visitors and limits"): an
 * attempt is counted before the API is asked, and given back unless the API refused the key, so a
 * hundred simultaneous posts make five calls at most. Refusals also count per key prefix across
 * all visitors; past that count only visitors without a refusal of their own may try, so a crowd
 * of guessers slows itself, not the staff member with the right key.
 */
export const signIn = async (_previous: TSignInState, data: FormData): Promise<TSignInState> => {
  const typed = data.get('apiKey');
  const apiKey = typeof typed === 'string' ? typed.trim() : '';
  if (apiKey === '') {
    return { error: 'Enter your staff key.' };
  }
  if (apiKey.length > KEY_MAX_LENGTH || /\s/.test(apiKey)) {
    return { error: REFUSED };
  }
  const visitor = await currentVisitor();
  const limits = visitorLimits();
  const attempt = await limits.consume('sign-in', visitor.key);
  if (!attempt.ok) {
    return tooManyAttempts(attempt.retryAfterSeconds);
  }
  const prefix = prefixOf(apiKey);
  const siteWide = await limits.peek('sign-in-site', prefix);
  if (!siteWide.ok && (await limits.used('sign-in', visitor.key)) > 1) {
    await limits.reward('sign-in', visitor.key);
    return tooManyAttempts(siteWide.retryAfterSeconds);
  }

  const described = await describeKey(apiKey);
  if (!described.ok && described.failure.kind === 'signed-out') {
    await limits.consume('sign-in-site', prefix);
    return { error: REFUSED };
  }
  // Not a refused key: the attempt does not count against the visitor.
  await limits.reward('sign-in', visitor.key);
  if (!described.ok) {
    switch (described.failure.kind) {
      case 'rate-limited':
        return { error: rateLimitedMessage(described.failure.retryAfterSeconds) };
      case 'unavailable':
        return {
          error: "We can't reach our animal records right now. Please try again in a minute.",
        };
      default:
        return { error: 'Something went wrong on our side. Please try again.' };
    }
  }
  const key = described.data;
  if (key.role !== 'staff') {
    return {
      error:
        'That is a partner key, not a staff key. The back office needs a staff key: ask whoever runs the store for one.',
    };
  }
  if (key.readOnly) {
    return {
      error: 'That key is read-only. The back office needs a staff key that can make changes.',
    };
  }
  await startSession(apiKey, { name: key.name, start: key.start });
  redirect(safeReturnPath(data.get('next')) ?? '/staff/applications');
};

/** Signs out: the server forgets the session and the cookie is cleared. */
export const signOut = async (): Promise<void> => {
  await endSession();
  redirect('/staff/sign-in?signed-out=1');
};

/** Signs the key out everywhere: every session it has, on any device, ends now. */
export const signOutEverywhere = async (): Promise<void> => {
  await endEverySession();
  redirect('/staff/sign-in?signed-out=everywhere');
};
