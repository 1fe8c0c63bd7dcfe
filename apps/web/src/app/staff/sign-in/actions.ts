'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { rateLimitedMessage } from '@/lib/messages';
import { endSession, startSession } from '@/lib/session';
import { SignInThrottle } from '@/lib/sign-in-throttle';
import { describeKey } from '@/lib/staff-api';

/** What the sign-in form shows after a refusal. Never the key that was typed. */
export type TSignInState = { error?: string };

const throttle = new SignInThrottle();

/** The visitor's address as the site's proxy (or Next.js) reports it; spoofable, so only a hint. */
const visitorOf = async (): Promise<string> =>
  (await headers()).get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';

const tooManyAttempts = (seconds: number): TSignInState => ({
  error: `Too many keys were refused. To protect the site, please wait ${Math.ceil(seconds / 60)} ${
    Math.ceil(seconds / 60) === 1 ? 'minute' : 'minutes'
  } before trying again.`,
});

/** Longer than any key the API issues; anything longer is not sent anywhere. */
const KEY_MAX_LENGTH = 200;

/**
 * Signs a staff member in: the API says what the key is (GET /v1/me); only a writable staff key
 * starts a session. Partner, read-only, revoked and unknown keys are refused in plain words.
 */
export const signIn = async (_previous: TSignInState, data: FormData): Promise<TSignInState> => {
  const typed = data.get('apiKey');
  const apiKey = typeof typed === 'string' ? typed.trim() : '';
  if (apiKey === '') {
    return { error: 'Enter your staff key.' };
  }
  if (apiKey.length > KEY_MAX_LENGTH || /\s/.test(apiKey)) {
    return { error: 'That key was not accepted: it is wrong, or it has been revoked.' };
  }
  const visitor = await visitorOf();
  const wait = throttle.secondsToWait(visitor);
  if (wait > 0) {
    return tooManyAttempts(wait);
  }
  const described = await describeKey(apiKey);
  if (!described.ok) {
    switch (described.failure.kind) {
      case 'signed-out':
        throttle.recordFailure(visitor);
        return { error: 'That key was not accepted: it is wrong, or it has been revoked.' };
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
  redirect('/staff/applications');
};

/** Signs out: the session cookie is cleared, whatever state it was in. */
export const signOut = async (): Promise<void> => {
  await endSession();
  redirect('/staff/sign-in?signed-out=1');
};
