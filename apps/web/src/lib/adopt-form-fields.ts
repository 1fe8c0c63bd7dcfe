/**
 * The "Apply to adopt" form's fields and state, without its validation: what the form (a client
 * component) needs to render. The validation (adopt-form.ts, the contract's ZNewOrder, which brings
 * zod) is loaded by the form only when it is about to be sent.
 */
export const ADOPT_FORM_FIELDS = [
  'name',
  'email',
  'phone',
  'household',
  'otherAnimals',
  'message',
] as const;
export type TAdoptFormField = (typeof ADOPT_FORM_FIELDS)[number];
export type TAdoptFormErrors = Partial<Record<TAdoptFormField, string>>;

/** What the adopter typed, kept as text so the form can show it again after any error. */
export type TAdoptFormValues = Record<TAdoptFormField, string>;

export type TAdoptFormState = {
  values: TAdoptFormValues;
  fieldErrors: TAdoptFormErrors;
  /** A problem with the whole application (taken meanwhile, rate limited, API unreachable, ...). */
  formError?: string;
  /** The animal was taken meanwhile: the form stays, filled in, but cannot be sent again. */
  isTaken?: boolean;
  /**
   * The Idempotency-Key for the next attempt. The page renders a fresh one into the form; the
   * action hands back a new one once the API has answered a refusal (which it keeps for that key),
   * so a corrected application is a new request, not a replay of the refusal.
   */
  token: string;
};

export const EMPTY_ADOPT_VALUES: TAdoptFormValues = {
  name: '',
  email: '',
  phone: '',
  household: '',
  otherAnimals: '',
  message: '',
};
