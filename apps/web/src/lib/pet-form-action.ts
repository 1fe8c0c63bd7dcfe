import 'server-only';
import type { TNewPet, TPet } from '@pets/contract/schemas';
import { redirect } from 'next/navigation';
import { rateLimitedMessage } from './messages';
import {
  fieldErrorsFromApi,
  readPetFormValues,
  type TPetFormState,
  type TPetFormValues,
  validatePetForm,
} from './pet-form';
import { SESSION_EXPIRED_PATH, SIGN_IN_PATH, staffKey } from './session';
import type { TStaffFailure, TStaffResult } from './staff-api';

type TWords = {
  /** What did not happen: "added", "saved". */
  nothing: string;
  /** What the staff member still has: "Your details", "Your changes". */
  kept: string;
};

type TOptions = {
  send: (apiKey: string, pet: TNewPet) => Promise<TStaffResult<TPet>>;
  /** Where to go once the API took it. */
  done: (pet: TPet) => string;
  words: TWords;
  /** The refusals one form tells in its own words; undefined for the common ones. */
  explain?: (failure: TStaffFailure, values: TPetFormValues) => TPetFormState | undefined;
};

/**
 * The server side of the add and edit forms (staff only): validates again with the contract's
 * schema (a browser can be bypassed), sends it with the signed-in staff member's own key, and on
 * success goes on. Errors come back as messages for the form, what was typed kept; nothing else
 * of the API's answer reaches the browser. Without a session it does nothing and goes to sign in.
 */
export const submitPetForm = async (
  data: FormData,
  { send, done, words, explain }: TOptions,
): Promise<TPetFormState> => {
  const apiKey = await staffKey();
  if (!apiKey) {
    redirect(SIGN_IN_PATH);
  }
  const values = readPetFormValues(data);
  const validation = validatePetForm(values);
  if (!validation.success) {
    return { values, fieldErrors: validation.fieldErrors };
  }
  const result = await send(apiKey, validation.data);
  if (result.ok) {
    redirect(done(result.data));
  }
  const { failure } = result;
  const explained = explain?.(failure, values);
  if (explained) {
    return explained;
  }
  switch (failure.kind) {
    case 'signed-out':
      redirect(SESSION_EXPIRED_PATH);
      break;
    case 'invalid': {
      const fieldErrors = fieldErrorsFromApi(failure.error);
      return Object.keys(fieldErrors).length > 0
        ? { values, fieldErrors }
        : { values, fieldErrors, formError: 'Some details were not accepted. Please check them.' };
    }
    case 'rate-limited':
      return { values, fieldErrors: {}, formError: rateLimitedMessage(failure.retryAfterSeconds) };
    case 'unavailable':
      return {
        values,
        fieldErrors: {},
        formError: `We can't reach our animal records right now, so nothing was ${words.nothing}. ${words.kept} are still here: please try again in a minute.`,
      };
    default:
      break;
  }
  return {
    values,
    fieldErrors: {},
    formError: `Something went wrong on our side and nothing was ${words.nothing}. Please try again.`,
  };
};
