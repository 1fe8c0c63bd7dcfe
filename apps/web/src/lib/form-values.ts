/**
 * What a form's fields hold between the browser and its server action, so that the page can show
 * them again after any refusal: a text (an input, a select, a radio group, one checkbox), or every
 * value ticked of a group of checkboxes.
 */
export type TFormValue = string | readonly string[];

/** The most characters of one field, and the most values of a list, a refused form shows again. */
const TEXT_MAX = 10_000;
const LIST_MAX = 64;

/**
 * A form's post as its values: each field of `empty` read from `data`, a list with all its values
 * (`getAll`), a text with its one value ('' when absent). A field `empty` does not name is left
 * out, and what is sent back to the page is bounded, whatever was posted.
 */
export const readFormValues = <TValues extends Record<string, TFormValue>>(
  data: FormData,
  empty: TValues,
): TValues => {
  const values: Record<string, TFormValue> = {};
  for (const [field, blank] of Object.entries(empty)) {
    if (typeof blank === 'string') {
      const value = data.get(field);
      values[field] = typeof value === 'string' ? value.slice(0, TEXT_MAX) : '';
    } else {
      values[field] = data
        .getAll(field)
        .filter((value): value is string => typeof value === 'string')
        .slice(0, LIST_MAX)
        .map((value) => value.slice(0, TEXT_MAX));
    }
  }
  return values as TValues;
};

/** The values as the page may see them again: each of `secrets` (a password) emptied. */
export const withoutSecrets = <TValues extends Record<string, TFormValue>>(
  values: TValues,
  secrets: readonly (keyof TValues)[],
): TValues => {
  const shown = { ...values };
  for (const field of secrets) {
    shown[field] = (typeof values[field] === 'string' ? '' : []) as TValues[typeof field];
  }
  return shown;
};
