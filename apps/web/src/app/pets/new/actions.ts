'use server';

import { redirect } from 'next/navigation';
import { createPet } from '@/lib/api';
import { rateLimitedMessage } from '@/lib/messages';
import {
  fieldErrorsFromApi,
  readPetFormValues,
  type TPetFormState,
  validatePetForm,
} from '@/lib/pet-form';
import { petHref } from '@/lib/pet-links';

/**
 * Adds an animal: validates again with the contract's schema (a browser can be bypassed), sends it
 * to the API with the site's key, and on success goes to the new animal's page. Errors come back
 * as messages for the form; nothing else of the API's answer reaches the browser.
 */
export const addPet = async (_previous: TPetFormState, data: FormData): Promise<TPetFormState> => {
  const values = readPetFormValues(data);
  const validation = validatePetForm(values);
  if (!validation.success) {
    return { values, fieldErrors: validation.fieldErrors };
  }

  const result = await createPet(validation.input);
  if (result.ok) {
    redirect(`${petHref(result.data.id)}?created=1`);
  }
  const { failure } = result;
  switch (failure.kind) {
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
