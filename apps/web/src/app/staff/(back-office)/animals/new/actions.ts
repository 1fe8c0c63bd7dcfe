'use server';

import type { TPetFormState } from '@/lib/pet-form';
import { submitPetForm } from '@/lib/pet-form-action';
import { createPetAsStaff } from '@/lib/staff-api';

/** Adds an animal (createPet) and goes to its staff page. */
export const addPet = async (_previous: TPetFormState, data: FormData): Promise<TPetFormState> =>
  submitPetForm(data, {
    send: createPetAsStaff,
    done: (pet) => `/staff/animals/${pet.id}?created=1`,
    words: { nothing: 'added', kept: 'Your details' },
  });
