'use server';

import { redirect } from 'next/navigation';
import {
  finishPasskeySignIn,
  signInTo,
  startPasskeySignIn,
  type TPasskeyFinish,
  type TPasskeyStart,
  type TSignInState,
} from '@/lib/account-forms';
import { endEverySession, endSession } from '@/lib/session';

export type { TSignInState };

/**
 * Signs a staff member or an admin in with email and password (lib/account-forms.ts: the API
 * checks the password and throttles per account; each visitor may have SIGN-IN refusals per
 * window here, docs/site.md "Visitors and limits").
 */
export const signIn = async (_previous: TSignInState, data: FormData): Promise<TSignInState> =>
  signInTo('staff', '/staff/applications', data);

/** "Sign in with a passkey", first step: the options (a challenge) for the browser. */
export const passkeyOptions = async (): Promise<TPasskeyStart> => startPasskeySignIn();

/** Second step: the browser's signed answer; the same session as a password sign-in. */
export const passkeySignIn = async (response: unknown, next: unknown): Promise<TPasskeyFinish> =>
  finishPasskeySignIn('staff', '/staff/applications', response, next);

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
