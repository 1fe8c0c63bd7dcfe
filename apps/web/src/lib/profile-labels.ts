// The profile's words on their own, for the browse filters (a client component): pet-profile.ts
// also reads the store's calendar, whose module brings zod into the browser. The words are the
// contract's, which the API's emails say too.
export { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from '@pets/contract/rules';
