import { type TError, type TNewOrder, ZNewOrder } from '@pets/contract/schemas';
import {
  ADOPT_FORM_FIELDS,
  type TAdoptFormErrors,
  type TAdoptFormField,
  type TAdoptFormValues,
} from './adopt-form-fields';

/**
 * The "Apply to adopt" form, shared by the browser (validation before sending) and the server
 * action (validation again, then the API, which validates a third time). Validation is the
 * contract's own ZNewOrder; this module only turns form fields into its input and its issues (or
 * the API's `400` details) into messages under the right field.
 */

export {
  ADOPT_FORM_FIELDS,
  EMPTY_ADOPT_VALUES,
  type TAdoptFormErrors,
  type TAdoptFormField,
  type TAdoptFormState,
  type TAdoptFormValues,
} from './adopt-form-fields';

/** Form field -> where ZNewOrder (and the API's details) name it. */
const PATHS: Record<TAdoptFormField, string> = {
  name: 'adopter.name',
  email: 'adopter.email',
  phone: 'adopter.phone',
  household: 'household',
  otherAnimals: 'otherAnimals',
  message: 'message',
};

const LABELS: Record<TAdoptFormField, string> = {
  name: 'Your name',
  email: 'Email',
  phone: 'Phone',
  household: 'Who lives with you',
  otherAnimals: 'Other animals at home',
  message: 'Your message',
};

export const readAdoptFormValues = (data: FormData): TAdoptFormValues => {
  const text = (name: TAdoptFormField) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  return {
    name: text('name'),
    email: text('email'),
    phone: text('phone'),
    household: text('household'),
    otherAnimals: text('otherAnimals'),
    message: text('message'),
  };
};

/** The input ZNewOrder is given: an empty optional answer is left out, not sent as "". */
export const toNewOrderInput = (
  petId: number,
  values: TAdoptFormValues,
): Record<string, unknown> => {
  // An address is checked as sent (no trimming in the contract): what was typed, less its spaces.
  const adopter: Record<string, unknown> = { name: values.name, email: values.email.trim() };
  if (values.phone.trim() !== '') {
    adopter.phone = values.phone;
  }
  const input: Record<string, unknown> = { petId, adopter };
  for (const field of ['household', 'otherAnimals', 'message'] as const) {
    if (values[field].trim() !== '') {
      input[field] = values[field];
    }
  }
  return input;
};

const sentence = (field: TAdoptFormField, message: string): string => {
  if (field === 'name' && /required|empty/.test(message)) {
    return 'Enter your name.';
  }
  if (field === 'email' && /required|empty/.test(message)) {
    return 'Enter your email address.';
  }
  if (field === 'email' && /valid email/.test(message)) {
    return 'Enter an email address like name@example.org.';
  }
  const text = /^(is|must)\b/.test(message) ? `${LABELS[field]} ${message}` : message;
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};

const fieldOfPath = (path: string): TAdoptFormField | undefined =>
  ADOPT_FORM_FIELDS.find((field) => PATHS[field] === path.replace(/^body\./, ''));

export type TAdoptFormValidation =
  | { success: true; data: TNewOrder }
  | { success: false; fieldErrors: TAdoptFormErrors };

/** Validates with the contract's ZNewOrder; the first problem of each field is shown under it. */
export const validateAdoptForm = (
  petId: number,
  values: TAdoptFormValues,
): TAdoptFormValidation => {
  const result = ZNewOrder.safeParse(toNewOrderInput(petId, values));
  if (result.success) {
    return { success: true, data: result.data };
  }
  const fieldErrors: TAdoptFormErrors = {};
  for (const issue of result.error.issues) {
    const field = fieldOfPath(issue.path.join('.'));
    if (field && fieldErrors[field] === undefined) {
      fieldErrors[field] = sentence(field, issue.message);
    }
  }
  // The contract has no separate "required" rule for an empty email: it is just not an address.
  if (fieldErrors.email && values.email.trim() === '') {
    fieldErrors.email = 'Enter your email address.';
  }
  if (Object.keys(fieldErrors).length === 0) {
    fieldErrors.name = 'Please check the form.';
  }
  return { success: false, fieldErrors };
};

/** The API's `400` details (`adopter.email`, `body.message`, ...) as field messages. */
export const adoptFieldErrorsFromApi = (error: TError): TAdoptFormErrors => {
  const fieldErrors: TAdoptFormErrors = {};
  for (const detail of error.details ?? []) {
    const field = fieldOfPath(detail.field);
    if (field && fieldErrors[field] === undefined) {
      fieldErrors[field] = sentence(field, detail.message);
    }
  }
  return fieldErrors;
};
