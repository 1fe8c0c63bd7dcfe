import { type TError, type TNewPet, type TNewPetInput, ZNewPet } from '@pets/contract/schemas';

/**
 * The "Add an animal" form, shared by the browser (validation before sending) and the server
 * action (validation again, then the API, which validates a third time). Validation is the
 * contract's own ZNewPet; this module only turns form fields into its input and its issues (or the
 * API's `400` details) into messages under the right field.
 */

export const PET_FORM_FIELDS = ['name', 'categoryId', 'status'] as const;
export type TPetFormField = (typeof PET_FORM_FIELDS)[number];
export type TPetFormErrors = Partial<Record<TPetFormField, string>>;

/** What the visitor typed, kept as text so the form can show it again after an error. */
export type TPetFormValues = Record<TPetFormField, string>;

export type TPetFormState = {
  values: TPetFormValues;
  fieldErrors: TPetFormErrors;
  /** A problem with the whole submission (rate limited, API unreachable, ...). */
  formError?: string;
};

export const EMPTY_PET_FORM: TPetFormState = {
  values: { name: '', categoryId: '', status: 'available' },
  fieldErrors: {},
};

const LABELS: Record<TPetFormField, string> = {
  name: 'Name',
  categoryId: 'Category',
  status: 'Status',
};

export const readPetFormValues = (data: FormData): TPetFormValues => {
  const text = (name: TPetFormField) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  return { name: text('name'), categoryId: text('categoryId'), status: text('status') };
};

/** The input ZNewPet is given: an unchosen category or status is left out, not sent as "". */
export const toNewPetInput = (values: TPetFormValues): Record<string, unknown> => {
  const input: Record<string, unknown> = { name: values.name };
  if (values.categoryId !== '') {
    input.categoryId = /^\d+$/.test(values.categoryId)
      ? Number(values.categoryId)
      : values.categoryId;
  }
  if (values.status !== '') {
    input.status = values.status;
  }
  return input;
};

const sentence = (field: TPetFormField, message: string): string => {
  if (field === 'categoryId' && /required|integer/.test(message)) {
    return 'Choose a category.';
  }
  if (field === 'status' && /required|invalid|expected/i.test(message)) {
    return 'Choose a status.';
  }
  const text = /^(is|must)\b/.test(message) ? `${LABELS[field]} ${message}` : message;
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};

const isField = (value: unknown): value is TPetFormField =>
  PET_FORM_FIELDS.some((field) => field === value);

export type TPetFormValidation =
  | { success: true; data: TNewPet; input: TNewPetInput }
  | { success: false; fieldErrors: TPetFormErrors };

/** Validates with the contract's ZNewPet; the first problem of each field is shown under it. */
export const validatePetForm = (values: TPetFormValues): TPetFormValidation => {
  const input = toNewPetInput(values);
  const result = ZNewPet.safeParse(input);
  if (result.success) {
    return { success: true, data: result.data, input: result.data };
  }
  const fieldErrors: TPetFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (isField(field) && fieldErrors[field] === undefined) {
      fieldErrors[field] = sentence(field, issue.message);
    }
  }
  if (Object.keys(fieldErrors).length === 0) {
    fieldErrors.name = 'Please check the form.';
  }
  return { success: false, fieldErrors };
};

/**
 * The API's `400` details as field messages. `details[].field` names a body field (`name`,
 * `categoryId`, `status`), possibly prefixed with `body.`.
 */
export const fieldErrorsFromApi = (error: TError): TPetFormErrors => {
  const fieldErrors: TPetFormErrors = {};
  for (const detail of error.details ?? []) {
    const field = detail.field.replace(/^body\./, '');
    if (isField(field) && fieldErrors[field] === undefined) {
      fieldErrors[field] = sentence(field, detail.message);
    }
  }
  return fieldErrors;
};
