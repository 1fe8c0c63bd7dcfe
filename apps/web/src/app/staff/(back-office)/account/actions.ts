'use server';

import { PASSWORD_LENGTH, PASSWORD_LENGTH_WORDS } from '@pets/contract/rules';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { endOneSessionOf } from '@/lib/end-one-session';
import {
  finishAddingPasskey,
  removePasskeyOf,
  renamePasskeyOf,
  startAddingPasskey,
  type TAddPasskeyFinish,
  type TAddPasskeyStart,
} from '@/lib/passkey-forms';
import { SESSION_EXPIRED_PATH, staffKey } from '@/lib/session';
import { changePassword } from '@/lib/site-api';

export type TChangePasswordState = { error?: string; done?: boolean };

const textOf = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

const credentialOrSignIn = async (): Promise<string> =>
  (await staffKey()) ?? redirect(SESSION_EXPIRED_PATH);

/** Ends one of the person's sessions (another device); this one is ended by "Sign out". */
export const endOneSession = async (data: FormData): Promise<void> =>
  endOneSessionOf(await credentialOrSignIn(), data, {
    account: '/staff/account',
    expired: SESSION_EXPIRED_PATH,
  });

/**
 * "Add a passkey", first step: the person confirms it is them (the password, or one of their
 * passkeys), then the options (a challenge bound to this account).
 */
export const addPasskeyOptions = async (confirmation: unknown): Promise<TAddPasskeyStart> => {
  const answer = await startAddingPasskey(await credentialOrSignIn(), confirmation);
  return 'signedOut' in answer ? redirect(SESSION_EXPIRED_PATH) : answer;
};

/** Second step: the browser's new credential, checked and kept by the API. */
export const addOwnPasskey = async (
  response: unknown,
  name: unknown,
): Promise<TAddPasskeyFinish> => {
  const answer = await finishAddingPasskey(await credentialOrSignIn(), response, name);
  if (answer.signedOut) {
    redirect(SESSION_EXPIRED_PATH);
  }
  revalidatePath('/staff/account');
  return answer;
};

/** Removes one of the person's passkeys (a form: works without JavaScript). */
export const removeOwnPasskey = async (data: FormData): Promise<void> => {
  if (!(await removePasskeyOf(await credentialOrSignIn(), textOf(data, 'id')))) {
    redirect(SESSION_EXPIRED_PATH);
  }
  revalidatePath('/staff/account');
  redirect('/staff/account?passkey-removed=1');
};

/** Changes the password; the API ends every other session of the account. */
export const changeOwnPassword = async (
  _previous: TChangePasswordState,
  data: FormData,
): Promise<TChangePasswordState> => {
  const credential = await credentialOrSignIn();
  const current = textOf(data, 'current');
  const next = textOf(data, 'password');
  if (current === '' || current.length > PASSWORD_LENGTH.max) {
    return { error: 'Enter your current password.' };
  }
  if (next.length < PASSWORD_LENGTH.min || next.length > PASSWORD_LENGTH.max) {
    return { error: `Choose a new password of ${PASSWORD_LENGTH_WORDS}.` };
  }
  if (next !== textOf(data, 'repeat')) {
    return { error: 'The two new passwords are not the same.' };
  }
  const answer = await changePassword(credential, current, next);
  if (answer.ok) {
    return { done: true };
  }
  switch (answer.failure.kind) {
    case 'signed-out':
      redirect(SESSION_EXPIRED_PATH);
      break;
    case 'refused':
      return { error: answer.failure.message || 'That password was not accepted.' };
    case 'throttled':
    case 'rate-limited':
      return { error: 'Too many attempts. Please wait a few minutes and try again.' };
    default:
      return { error: 'Something went wrong on our side. Please try again.' };
  }
  return {};
};

/** Renames one of the person's passkeys (a form: works without JavaScript). */
export const renameOwnPasskey = async (data: FormData): Promise<void> => {
  const outcome = await renamePasskeyOf(
    await credentialOrSignIn(),
    textOf(data, 'id'),
    textOf(data, 'name'),
  );
  if (outcome === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  revalidatePath('/staff/account');
  redirect(`/staff/account?passkey-renamed=${outcome}`);
};
