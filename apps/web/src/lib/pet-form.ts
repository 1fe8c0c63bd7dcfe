import {
  type TError,
  type TNewPet,
  type TNewPetInput,
  type TPet,
  ZNewPet,
} from '@pets/contract/schemas';

/**
 * The "Add an animal" and "Edit" forms, shared by the browser (validation before sending) and the
 * server action (validation again, then the API, which validates a third time). Validation is the
 * contract's own ZNewPet; this module only turns form fields into its input and its issues (or the
 * API's `400` details) into messages under the right field.
 *
 * The profile fields (sex, age, size, breed, arrival date, description) may stay empty: an empty
 * one is sent as `null`, "not known", which on an edit clears what was there.
 */

export const PET_PROFILE_FIELDS = [
  'sex',
  'age',
  'size',
  'breed',
  'arrivedAt',
  'description',
] as const;
export type TPetProfileField = (typeof PET_PROFILE_FIELDS)[number];

/** In the form's order, so the first field with a problem gets the focus. */
export const PET_FORM_FIELDS = ['name', 'categoryId', 'status', ...PET_PROFILE_FIELDS] as const;
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

const EMPTY_PROFILE: Record<TPetProfileField, string> = {
  sex: '',
  age: '',
  size: '',
  breed: '',
  arrivedAt: '',
  description: '',
};

export const EMPTY_PET_FORM: TPetFormState = {
  values: { name: '', categoryId: '', status: 'available', ...EMPTY_PROFILE },
  fieldErrors: {},
};

const LABELS: Record<TPetFormField, string> = {
  name: 'Name',
  categoryId: 'Category',
  status: 'Status',
  sex: 'Sex',
  age: 'Age',
  size: 'Size',
  breed: 'Breed',
  arrivedAt: 'Arrival date',
  description: 'Story',
};

export const readPetFormValues = (data: FormData): TPetFormValues => {
  const text = (name: TPetFormField) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  return Object.fromEntries(PET_FORM_FIELDS.map((field) => [field, text(field)])) as Record<
    TPetFormField,
    string
  >;
};

/** An animal's stored values as the form shows them (unknown profile fields empty). */
export const petFormValues = (
  pet: Pick<TPet, 'name' | 'categoryId' | 'status' | TPetProfileField>,
): TPetFormValues => ({
  name: pet.name,
  categoryId: String(pet.categoryId),
  status: pet.status,
  sex: pet.sex ?? '',
  age: pet.age ?? '',
  size: pet.size ?? '',
  breed: pet.breed ?? '',
  arrivedAt: pet.arrivedAt ?? '',
  description: pet.description ?? '',
});

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
  for (const field of PET_PROFILE_FIELDS) {
    // Blank means "not known": `null`, which an edit uses to clear the field. A browser sends a
    // textarea's line breaks as CRLF (the HTML form rules); the story keeps plain `\n`.
    const value = values[field].replace(/\r\n?/g, '\n');
    input[field] = value.trim() === '' ? null : value;
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
  if (
    (field === 'sex' || field === 'age' || field === 'size') &&
    /invalid|expected/i.test(message)
  ) {
    return 'Choose one of the options.';
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
