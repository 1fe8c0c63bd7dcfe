'use server';

import { redirect } from 'next/navigation';
import { visitorLimits } from '@/lib/limits';
import { acceptInvite, requestPasswordReset, resetPassword } from '@/lib/site-api';
import { currentVisitor } from '@/lib/visitor';

/** What a password form shows after a refusal (never the password). */
export type TPasswordFormState = { error?: string; email?: string; sent?: boolean };

const textOf = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

const BAD_LINK =
  'This link is not valid: it may have expired or been used already. Ask for a new one.';

const passwordProblem = (password: string, repeated: string): string | undefined => {
  if (password.length < 10 || password.length > 200) {
    return 'Choose a password of 10 to 200 characters.';
  }
  if (password !== repeated) {
    return 'The two passwords are not the same.';
  }
  return undefined;
};

/**
 * "Email me a reset link": the same answer for any address (the API sends at most a few an hour
 * to one address), and each visitor may ask RESET times an hour here.
 */
export const askForReset = async (
  _previous: TPasswordFormState,
  data: FormData,
): Promise<TPasswordFormState> => {
  const email = textOf(data, 'email').trim().slice(0, 254);
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
    return { error: 'Enter the email address you sign in with.', email };
  }
  const visitor = await currentVisitor();
  const attempt = await visitorLimits().consume('reset', visitor.key);
  if (!attempt.ok) {
    return {
      error: 'Too many reset links were asked for from here. Please try again in an hour.',
      email,
    };
  }
  const answer = await requestPasswordReset(email);
  if (!answer.ok) {
    return {
      error:
        answer.failure.kind === 'refused'
          ? 'Enter the email address you sign in with.'
          : "We can't send it right now. Please try again in a minute.",
      email,
    };
  }
  return { sent: true, email };
};

const linkFailure = (kind: string): string =>
  kind === 'refused' ? BAD_LINK : "We can't reach our records right now. Please try again.";

/** Sets a new password with a reset link's token; every session of the account then ends. */
export const setNewPassword = async (
  _previous: TPasswordFormState,
  data: FormData,
): Promise<TPasswordFormState> => {
  const password = textOf(data, 'password');
  const problem = passwordProblem(password, textOf(data, 'repeat'));
  if (problem) {
    return { error: problem };
  }
  const answer = await resetPassword(textOf(data, 'token'), password);
  if (!answer.ok) {
    return { error: linkFailure(answer.failure.kind) };
  }
  redirect('/staff/sign-in?reset=1');
};

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
