import type { TPetAge, TPetSex, TPetSize } from '@pets/contract/schemas';

// The profile's words on their own, for the browse filters (a client component): pet-profile.ts
// also reads the store's calendar, whose module brings zod into the browser.

export const SEX_LABELS: Record<TPetSex, string> = {
  female: 'Female',
  male: 'Male',
  unknown: 'Sex not known',
};

export const AGE_LABELS: Record<TPetAge, string> = {
  baby: 'Baby',
  young: 'Young',
  adult: 'Adult',
  senior: 'Senior',
};

export const SIZE_LABELS: Record<TPetSize, string> = {
  small: 'Small',
  medium: 'Medium',
  large: 'Large',
  xlarge: 'Extra large',
};
