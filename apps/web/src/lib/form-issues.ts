import type { TErrorDetail } from '@pets/contract/schemas';

/**
 * One problem with one input: where the contract's check (a zod issue's path) or the API's `400`
 * answer (a detail's `field`, `url` or `body.url`) says it is, and its message. The message is a
 * validator's ("must be an https URL"): a form never shows it as it is, but says it in its own
 * words, chosen here by the field it lands under.
 */
export type TInputIssue = { path: string; message: string };

/** How a form says a field's problem: the same words always, or words chosen by the message. */
export type TFieldWords = string | ((message: string) => string);

/**
 * A form's words for the fields a check or the API can refuse; `paths` names the fields whose
 * input is called otherwise (`expiresAt` is the form's `expiresOn`).
 */
export type TFormWords<TField extends string> = {
  fields: Partial<Record<TField, TFieldWords>>;
  paths?: Readonly<Record<string, TField>>;
};

/** A zod issue's path as a detail's `field`: `events.0`. */
export const issuesOfCheck = (
  issues: readonly { path: readonly (string | number)[]; message: string }[],
): TInputIssue[] => issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));

/** The API's details, their body's fields named as the form names them (`body.url` -> `url`). */
export const issuesOfApi = (details: readonly TErrorDetail[] | undefined): TInputIssue[] =>
  (details ?? []).map((detail) => ({
    path: detail.field.replace(/^body\./, ''),
    message: detail.message,
  }));

/**
 * The issues as messages under the fields of a form: each issue's path (its first part, `events`
 * for `events.0`) names the field, the form's words say it. The first issue of each field is
 * kept; an issue of a field the form has no words for is left out (the caller says the form's
 * own words instead), so a validator's text never reaches a page.
 */
export const fieldErrorsOf = <TField extends string>(
  issues: readonly TInputIssue[],
  words: TFormWords<TField>,
): Partial<Record<TField, string>> => {
  const errors: Partial<Record<TField, string>> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path, words);
    if (field === undefined || errors[field] !== undefined) {
      continue;
    }
    const said = words.fields[field];
    if (said !== undefined) {
      errors[field] = typeof said === 'string' ? said : said(issue.message);
    }
  }
  return errors;
};

const fieldOf = <TField extends string>(
  path: string,
  words: TFormWords<TField>,
): TField | undefined => {
  const named = words.paths?.[path] ?? words.paths?.[path.split('.')[0] ?? ''];
  if (named !== undefined) {
    return named;
  }
  const first = path.split('.')[0] ?? '';
  return Object.hasOwn(words.fields, first) ? (first as TField) : undefined;
};
