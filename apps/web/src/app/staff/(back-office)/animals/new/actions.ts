'use server';

import { redirect } from 'next/navigation';
import { rateLimitedMessage } from '@/lib/messages';
import {
  fieldErrorsFromApi,
  readPetFormValues,
  type TPetFormState,
  validatePetForm,
} from '@/lib/pet-form';
import { SESSION_EXPIRED_PATH, SIGN_IN_PATH, staffKey } from '@/lib/session';
import { createPetAsStaff } from '@/lib/staff-api';

/**
 * Adds an animal (staff only): validates again with the contract's schema (a browser can be
 * bypassed), sends it to the API with the signed-in staff member's own key, and on success goes
 * to the animal's staff page. Errors come back as messages for the form; nothing else of the
 * API's answer reaches the browser. Without a session it does nothing and goes to sign in.
 */
export const addPet = async (_previous: TPetFormState, data: FormData): Promise<TPetFormState> => {
  const apiKey = await staffKey();
  if (!apiKey) {
    redirect(SIGN_IN_PATH);
  }
  const values = readPetFormValues(data);
  const validation = validatePetForm(values);
  if (!validation.success) {
    return { values, fieldErrors: validation.fieldErrors };
  }

  const result = await createPetAsStaff(apiKey, validation.input);
  if (result.ok) {
    redirect(`/staff/animals/${result.data.id}?created=1`);
  }
  const { failure } = result;
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
        formError:
          "We can't reach our animal records right now, so nothing was added. Your details are still here: please try again in a minute.",
      };
    default:
      return {
        values,
        fieldErrors: {},
        formError: 'Something went wrong on our side and nothing was added. Please try again.',
      };
  }
};
