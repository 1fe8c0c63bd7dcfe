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
import { updatePet } from '@/lib/staff-api';

/**
 * Saves an animal's name, category, status and profile (updatePet, staff only; a profile field
 * left blank is sent as `null` and cleared), checked first with the contract's schema as the add
 * form is. A 409 (an open application keeps it pending) is told in
 * plain words, with what was typed kept. Without a session it does nothing and goes to sign in.
 */
export const editPet = async (
  petId: number,
  _previous: TPetFormState,
  data: FormData,
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
  const result = await updatePet(apiKey, petId, validation.data);
  if (result.ok) {
    redirect(`/staff/animals/${petId}?saved=1`);
  }
  const { failure } = result;
  switch (failure.kind) {
    case 'signed-out':
      redirect(SESSION_EXPIRED_PATH);
      break;
    case 'conflict':
      return {
        values,
        fieldErrors: {
          status:
            'This animal has an open adoption application, so it stays "Pending adoption". Complete or cancel the application instead.',
        },
      };
    case 'invalid': {
      const fieldErrors = fieldErrorsFromApi(failure.error);
      return Object.keys(fieldErrors).length > 0
        ? { values, fieldErrors }
        : { values, fieldErrors, formError: 'Some details were not accepted. Please check them.' };
    }
    case 'not-found':
      return { values, fieldErrors: {}, formError: 'This animal is no longer in our records.' };
    case 'rate-limited':
      return { values, fieldErrors: {}, formError: rateLimitedMessage(failure.retryAfterSeconds) };
    case 'unavailable':
      return {
        values,
        fieldErrors: {},
        formError:
          "We can't reach our animal records right now, so nothing was saved. Your changes are still here: please try again in a minute.",
      };
    default:
      break;
  }
  return {
    values,
    fieldErrors: {},
    formError: 'Something went wrong on our side and nothing was saved. Please try again.',
  };
};
