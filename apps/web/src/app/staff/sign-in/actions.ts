'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { webConfig } from '@/env';
import { visitorLimits } from '@/lib/limits';
import {
  deviceToken,
  endEverySession,
  endSession,
  safeReturnPath,
  startSession,
} from '@/lib/session';
import { signInWithPassword } from '@/lib/site-api';
import { currentVisitor } from '@/lib/visitor';

/** What the sign-in form shows after a refusal, and the email typed (never the password). */
export type TSignInState = { error?: string; email?: string };

const minutesOf = (seconds: number): string => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
};

const tooManyFromHere = (seconds: number): string =>
  `Too many sign-ins were refused from here. To protect the site, please wait ${minutesOf(
    seconds,
  )} before trying again.`;

const tooManyForAccount = (seconds: number): string =>
  `Too many attempts for this account. Please wait ${minutesOf(
    seconds,
  )}, sign in from a device you have used before, or reset your password.`;

const textOf = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

/**
 * Signs a staff member or an admin in with email and password. The API checks the password,
 * throttles per account (and per account and visitor), starts the session and returns its
 * credential once; the site keeps it in the sealed cookie. Each visitor may also have SIGN-IN
 * refusals per window here (docs/site.md, "Visitors and limits"): an attempt is counted before the
 * API is asked, and given back unless the API said the email and password do not match.
 */
export const signIn = async (_previous: TSignInState, data: FormData): Promise<TSignInState> => {
  const email = textOf(data, 'email').trim().slice(0, 254);
  const password = textOf(data, 'password');
  if (email === '' || password === '') {
    return { error: 'Enter your email address and your password.', email };
  }
  if (password.length > 200) {
    return { error: 'That email and password do not match.', email };
  }
  const visitor = await currentVisitor();
  const limits = visitorLimits();
  const attempt = await limits.consume('sign-in', visitor.key);
  if (!attempt.ok) {
    return { error: tooManyFromHere(attempt.retryAfterSeconds), email };
  }
  const answer = await signInWithPassword({
    email,
    password,
    idleSeconds: webConfig().staffSessionIdleSeconds,
    userAgent: (await headers()).get('user-agent')?.slice(0, 1000) ?? undefined,
    deviceToken: await deviceToken(),
  });
  if (!answer.ok && answer.failure.kind === 'signed-out') {
    return { error: 'That email and password do not match.', email };
  }
  // Not a wrong password: the attempt does not count against the visitor.
  await limits.reward('sign-in', visitor.key);
  if (!answer.ok) {
    const failure = answer.failure;
    switch (failure.kind) {
      case 'throttled':
      case 'rate-limited':
        return { error: tooManyForAccount(failure.retryAfterSeconds), email };
      case 'refused':
        return {
          error:
            failure.status === 400
              ? 'Enter a valid email address and your password.'
              : failure.message || 'This account cannot sign in here.',
          email,
        };
      case 'unavailable':
        return {
          error: "We can't reach our records right now. Please try again in a minute.",
          email,
        };
      default:
        return { error: 'Something went wrong on our side. Please try again.', email };
    }
  }
  await startSession(answer.data);
  redirect(safeReturnPath(data.get('next')) ?? '/staff/applications');
};

/** Signs out: the API ends the session and the cookie is cleared. */
export const signOut = async (): Promise<void> => {
  await endSession();
  redirect('/staff/sign-in?signed-out=1');
};

/** Signs the person out everywhere: every session of their account, on any device, ends now. */
export const signOutEverywhere = async (): Promise<void> => {
  await endEverySession();
  redirect('/staff/sign-in?signed-out=everywhere');
};
