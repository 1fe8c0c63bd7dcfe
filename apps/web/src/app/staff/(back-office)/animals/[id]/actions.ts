'use server';

import type { TPetFormState } from '@/lib/pet-form';
import { submitPetForm } from '@/lib/pet-form-action';
import { updatePet } from '@/lib/staff-api';

/**
 * Saves an animal's name, category, status and profile (updatePet; a profile field left blank is
 * sent as `null` and cleared). A 409 (an approved application keeps it pending) is told in plain
 * words under the status.
 */
export const editPet = async (
  petId: number,
  _previous: TPetFormState,
  data: FormData,
): Promise<TPetFormState> =>
  submitPetForm(data, {
    send: (apiKey, pet) => updatePet(apiKey, petId, pet),
    done: () => `/staff/animals/${petId}?saved=1`,
    words: { nothing: 'saved', kept: 'Your changes' },
    explain: (failure, values) => {
      switch (failure.kind) {
        case 'conflict':
          return {
            values,
            fieldErrors: {
              status:
                'This animal is set aside for an approved application, so it stays "Pending adoption". Decline, complete or cancel that application instead.',
            },
          };
        case 'not-found':
          return { values, fieldErrors: {}, formError: 'This animal is no longer in our records.' };
        default:
          return undefined;
      }
    },
  });
