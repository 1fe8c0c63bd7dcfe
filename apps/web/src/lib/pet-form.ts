import {
  PET_DETAIL_FACTS,
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

/** The yes/no details (issue 28): a select of "Not known", "Yes", "No". */
export const PET_FACT_FIELDS = PET_DETAIL_FACTS;
export type TPetFactField = (typeof PET_FACT_FIELDS)[number];

/** The other details as the form holds them: the colours one select each, the fee as typed. */
export const PET_DETAIL_FIELDS = [
  ...PET_FACT_FIELDS,
  'specialNeedsNote',
  'energyLevel',
  'coatLength',
  'color1',
  'color2',
  'color3',
  'adoptionFee',
  'feeCurrency',
] as const;
export type TPetDetailField = (typeof PET_DETAIL_FIELDS)[number];

/** The currency a new animal's fee is in until staff choose another. */
export const DEFAULT_FEE_CURRENCY = 'GBP';

/** The currencies the form offers (an animal's other currency is offered too, when it has one). */
export const FEE_CURRENCIES: readonly string[] = [
  'GBP',
  'EUR',
  'USD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'CAD',
  'AUD',
  'NZD',
  'JPY',
];

/** In the form's order, so the first field with a problem gets the focus. */
export const PET_FORM_FIELDS = [
  'name',
  'categoryId',
  'status',
  ...PET_PROFILE_FIELDS,
  ...PET_DETAIL_FIELDS,
] as const;
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

const EMPTY_DETAILS: Record<TPetDetailField, string> = {
  ...(Object.fromEntries(PET_DETAIL_FIELDS.map((field) => [field, ''])) as Record<
    TPetDetailField,
    string
  >),
  feeCurrency: DEFAULT_FEE_CURRENCY,
};

export const EMPTY_PET_FORM: TPetFormState = {
  values: { name: '', categoryId: '', status: 'available', ...EMPTY_PROFILE, ...EMPTY_DETAILS },
  fieldErrors: {},
};

/** Each field's label: on the form, and at the start of its messages ("Breed must be ..."). */
export const PET_FORM_LABELS: Record<TPetFormField, string> = {
  name: 'Name',
  categoryId: 'Category',
  status: 'Status',
  sex: 'Sex',
  age: 'Age',
  size: 'Size when grown',
  breed: 'Breed',
  arrivedAt: 'Arrival date',
  description: 'Story',
  goodWithChildren: 'Good with children',
  goodWithDogs: 'Good with dogs',
  goodWithCats: 'Good with cats',
  houseTrained: 'House-trained',
  spayedNeutered: 'Spayed or neutered',
  vaccinated: 'Vaccinations up to date',
  specialNeeds: 'Special needs',
  specialNeedsNote: 'Special needs note',
  energyLevel: 'Energy',
  coatLength: 'Coat',
  color1: 'Main colour',
  color2: 'Second colour',
  color3: 'Third colour',
  adoptionFee: 'Adoption fee',
  feeCurrency: 'Currency',
};

/** Digits after the point in a currency's amounts: 2 for GBP and EUR, 0 for JPY. */
export const currencyDigits = (currency: string): number => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
};

/** A fee in minor units as staff type it: `9500` GBP is "95.00". */
export const feeText = (amount: number, currency: string): string => {
  const digits = currencyDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
};

/**
 * A typed amount ("95", "95.5", "95.50", "1,250.00") in the currency's minor units, or undefined
 * when it is not an amount with at most the currency's digits.
 */
export const feeAmountOf = (text: string, currency: string): number | undefined => {
  const digits = currencyDigits(currency);
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(text.trim());
  const [, whole, fraction = ''] = match ?? [];
  if (whole === undefined || fraction.length > digits) {
    return undefined;
  }
  return (
    Number(whole.replaceAll(',', '')) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0)
  );
};

const FACT_TEXT = { yes: true, no: false } as const;

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
  pet: Pick<
    TPet,
    | 'name'
    | 'categoryId'
    | 'status'
    | TPetProfileField
    | TPetFactField
    | 'specialNeedsNote'
    | 'energyLevel'
    | 'coatLength'
    | 'colors'
    | 'adoptionFee'
  >,
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
  ...(Object.fromEntries(
    PET_FACT_FIELDS.map((field) => [field, pet[field] === null ? '' : pet[field] ? 'yes' : 'no']),
  ) as Record<TPetFactField, string>),
  specialNeedsNote: pet.specialNeedsNote ?? '',
  energyLevel: pet.energyLevel ?? '',
  coatLength: pet.coatLength ?? '',
  color1: pet.colors[0] ?? '',
  color2: pet.colors[1] ?? '',
  color3: pet.colors[2] ?? '',
  adoptionFee: pet.adoptionFee ? feeText(pet.adoptionFee.amount, pet.adoptionFee.currency) : '',
  feeCurrency: pet.adoptionFee?.currency ?? DEFAULT_FEE_CURRENCY,
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
  for (const field of PET_FACT_FIELDS) {
    const value = values[field];
    input[field] =
      value === '' ? null : value in FACT_TEXT ? FACT_TEXT[value as 'yes' | 'no'] : value;
  }
  const note = values.specialNeedsNote.replace(/\r\n?/g, '\n');
  input.specialNeedsNote = note.trim() === '' ? null : note;
  input.energyLevel = values.energyLevel === '' ? null : values.energyLevel;
  input.coatLength = values.coatLength === '' ? null : values.coatLength;
  input.colors = [values.color1, values.color2, values.color3].filter((color) => color !== '');
  if (values.adoptionFee.trim() === '') {
    input.adoptionFee = null;
  } else {
    // A text that is no amount goes to the contract as it is: its "must be an integer" message
    // lands under the fee, said in this form's words (sentence()).
    const amount = feeAmountOf(values.adoptionFee, values.feeCurrency);
    input.adoptionFee = { amount: amount ?? values.adoptionFee, currency: values.feeCurrency };
  }
  return input;
};

/** The form field a contract issue's path names: the colours' and the fee's parts included. */
const formFieldOf = (path: readonly (string | number)[]): TPetFormField | undefined => {
  const [first, second] = path;
  if (first === 'colors') {
    return typeof second === 'number'
      ? (['color1', 'color2', 'color3'] as const)[second]
      : 'color1';
  }
  if (first === 'adoptionFee') {
    return second === 'currency' ? 'feeCurrency' : 'adoptionFee';
  }
  return isField(first) ? first : undefined;
};

const sentence = (field: TPetFormField, message: string): string => {
  if (field === 'categoryId' && /required|integer/.test(message)) {
    return 'Choose a category.';
  }
  if (field === 'status' && /required|invalid|expected/i.test(message)) {
    return 'Choose a status.';
  }
  if (
    (field === 'sex' ||
      field === 'age' ||
      field === 'size' ||
      field === 'energyLevel' ||
      field === 'coatLength' ||
      field === 'feeCurrency' ||
      field.startsWith('color') ||
      PET_FACT_FIELDS.some((fact) => fact === field)) &&
    /invalid|expected|must be true/i.test(message)
  ) {
    return 'Choose one of the options.';
  }
  if (field === 'color1' && /twice/.test(message)) {
    return 'Choose each colour once.';
  }
  if (field === 'adoptionFee' && /integer|number|negative/.test(message)) {
    return 'Write the fee as an amount, such as 95.00, or leave it blank to say "ask the store".';
  }
  const text = /^(is|must)\b/.test(message) ? `${PET_FORM_LABELS[field]} ${message}` : message;
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
    const field = formFieldOf(issue.path);
    if (field !== undefined && fieldErrors[field] === undefined) {
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
    const field = formFieldOf(
      detail.field
        .replace(/^body\./, '')
        .split('.')
        .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    );
    if (field !== undefined && fieldErrors[field] === undefined) {
      fieldErrors[field] = sentence(field, detail.message);
    }
  }
  return fieldErrors;
};
