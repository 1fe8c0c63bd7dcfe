'use server';

import { redirect } from 'next/navigation';
import {
  askForResetLink,
  linkFailure,
  passwordProblem,
  setPasswordIn,
  type TNewPasswordState,
  type TPasswordFormState,
  type TResetState,
  textOf,
} from '@/lib/account-forms';
import { acceptInvite } from '@/lib/site-api';

export type { TNewPasswordState, TPasswordFormState, TResetState };

/** "Email me a reset link" (lib/account-forms.ts). */
export const askForReset = async (_previous: TResetState, data: FormData): Promise<TResetState> =>
  askForResetLink(data);

/** Sets a new password with a reset link's token; every session of the account then ends. */
export const setNewPassword = async (
  _previous: TNewPasswordState,
  data: FormData,
): Promise<TNewPasswordState> => setPasswordIn('staff', data);

/** Accepts an invitation: the person's name and their password; then they sign in. */
export const acceptInvitation = async (
  _previous: TPasswordFormState,
  data: FormData,
): Promise<TPasswordFormState> => {
  const name = textOf(data, 'name').trim();
  if (name === '' || name.length > 100) {
    return { error: 'Enter your name as your colleagues should see it (up to 100 characters).' };
  }
  const password = textOf(data, 'password');
  const problem = passwordProblem(password, textOf(data, 'repeat'));
  if (problem) {
    return { error: problem };
  }
  const answer = await acceptInvite(textOf(data, 'token'), name, password);
  if (!answer.ok) {
    return { error: linkFailure(answer.failure.kind) };
  }
  redirect('/staff/sign-in?reset=1');
};
