import 'server-only';
import {
  type TPasskeyOptions,
  ZPasskeyConfirmation,
  ZPasskeyName,
  ZPasskeyRegistration,
} from '@pets/contract/site';
import { addPasskey, deletePasskey, passkeyRegistrationOptions, renamePasskey } from './site-api';

/**
 * "Add a passkey" and "Remove" on the account pages of both areas (/staff/account,
 * /developers/account): the API makes the options and checks the browser's answer; the site passes
 * them through with the person's session credential. Each area's `actions.ts` names its credential
 * and where an ended session goes.
 */

export type TAddPasskeyStart = { options: TPasskeyOptions } | { error: string; signedOut?: true };
export type TAddPasskeyFinish = { error?: string; signedOut?: true; added?: string };

const UNREACHABLE = "We can't reach our records right now. Please try again in a minute.";

/**
 * The first step of adding a passkey: the person confirms it is them (their password again, or
 * one of their passkeys' signed answer), and the API hands out the options. A session alone adds
 * nothing: it may be borrowed or stolen.
 */
export const startAddingPasskey = async (
  credential: string,
  confirmation: unknown,
): Promise<TAddPasskeyStart> => {
  const parsed = ZPasskeyConfirmation.safeParse(confirmation);
  if (!parsed.success) {
    return 'password' in Object(confirmation)
      ? { error: 'Enter your password to add a passkey.' }
      : { error: 'That passkey answer was not understood. Please try again.' };
  }
  const answer = await passkeyRegistrationOptions(credential, parsed.data);
  if (answer.ok) {
    return { options: answer.data };
  }
  switch (answer.failure.kind) {
    case 'signed-out':
      return { error: 'Your session has ended.', signedOut: true };
    case 'refused':
      return {
        error:
          'password' in parsed.data
            ? 'That is not your password. Enter the password you sign in with.'
            : 'That passkey did not confirm it is you: use one of your own passkeys, or your password.',
      };
    case 'throttled':
    case 'rate-limited':
      return {
        error: `Too many wrong passwords. Please wait ${Math.max(
          1,
          Math.ceil(answer.failure.retryAfterSeconds / 60),
        )} minutes and try again.`,
      };
    case 'unavailable':
      return { error: UNREACHABLE };
    default:
      return { error: 'Something went wrong on our side. Please try again.' };
  }
};

export const finishAddingPasskey = async (
  credential: string,
  response: unknown,
  name: unknown,
): Promise<TAddPasskeyFinish> => {
  const parsed = ZPasskeyRegistration.safeParse(response);
  if (!parsed.success) {
    return { error: 'That passkey answer was not understood. Please try again.' };
  }
  const typed = typeof name === 'string' && name.trim() !== '' ? name : undefined;
  const named = typed === undefined ? undefined : ZPasskeyName.safeParse(typed);
  if (named && !named.success) {
    return { error: 'Give the passkey a name of at most 100 characters, or none.' };
  }
  const answer = await addPasskey(credential, parsed.data, named?.data);
  if (answer.ok) {
    return { added: answer.data.name };
  }
  switch (answer.failure.kind) {
    case 'signed-out':
      return { error: 'Your session has ended.', signedOut: true };
    case 'refused':
      return { error: answer.failure.message || 'The passkey could not be added.' };
    case 'unavailable':
      return { error: UNREACHABLE };
    default:
      return { error: 'Something went wrong on our side. Please try again.' };
  }
};

/** Removes one of the person's passkeys; false when the session has ended. */
export const removePasskeyOf = async (credential: string, id: string): Promise<boolean> => {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) {
    return true;
  }
  const answer = await deletePasskey(credential, id);
  return answer.ok || answer.failure.kind !== 'signed-out';
};

/** How a rename went: the `?passkey-renamed=` of the account page, or the session ended. */
export type TPasskeyRename = 'done' | 'invalid' | 'failed' | 'signed-out';

/** Renames one of the person's passkeys (a plain form on the account page). */
export const renamePasskeyOf = async (
  credential: string,
  id: string,
  name: string,
): Promise<TPasskeyRename> => {
  const parsed = ZPasskeyName.safeParse(name);
  if (!parsed.success) {
    return 'invalid';
  }
  if (!/^[1-9][0-9]{0,17}$/.test(id)) {
    return 'failed';
  }
  const answer = await renamePasskey(credential, id, parsed.data);
  if (answer.ok) {
    return 'done';
  }
  return answer.failure.kind === 'signed-out' ? 'signed-out' : 'failed';
};
