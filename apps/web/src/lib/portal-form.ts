import 'server-only';
import type { TCheckedFormState } from '@/components/form/use-checked-form';
import { readFormValues, type TFormValue, withoutSecrets } from './form-values';
import { portalRefusal, type TPortalRefusal, type TPortalWords } from './portal-failure';
import type { TFormCheck } from './portal-form-checks';
import type { TSiteResult } from './site-api';

/** One form of the developer portal, as its server action reads, checks and answers it. */
export type TPortalForm<
  TField extends string,
  TValues extends Record<TField, TFormValue>,
  TInput,
> = {
  /** Every field, with what it holds when nothing was typed (a list for a group of checkboxes). */
  empty: TValues;
  /** Fields never sent back to the page (a password). */
  secrets?: readonly TField[];
  /** The check the browser made (portal-form-checks.ts): the API's input, or words per field. */
  check: (values: TValues) => TFormCheck<TField, TInput>;
  words: TPortalWords<TField>;
};

type TRead<TField extends string, TValues extends Record<TField, TFormValue>, TInput> =
  | { ok: true; values: TValues; input: TInput }
  | { ok: false; state: TCheckedFormState<TField, TValues> };

/** The page's answer to a refusal: what was typed (secrets left out), the refusal's words. */
export const refusedPortalForm = <
  TField extends string,
  TValues extends Record<TField, TFormValue>,
  TInput,
>(
  values: TValues,
  form: TPortalForm<TField, TValues, TInput>,
  refusal: TPortalRefusal<TField>,
): TCheckedFormState<TField, TValues> => ({
  values: withoutSecrets(values, form.secrets ?? []),
  ...refusal,
});

/**
 * Reads a portal form's post and checks it again (a browser's check can be skipped): the values
 * and the API's input, or the page's answer, with what was typed and the words under the fields.
 */
export const readPortalForm = <
  TField extends string,
  TValues extends Record<TField, TFormValue>,
  TInput,
>(
  data: FormData,
  form: TPortalForm<TField, TValues, TInput>,
): TRead<TField, TValues, TInput> => {
  const values = readFormValues(data, form.empty);
  const check = form.check(values);
  return check.success
    ? { ok: true, values, input: check.data }
    : { ok: false, state: refusedPortalForm(values, form, { fieldErrors: check.fieldErrors }) };
};

/**
 * Every portal form's way through: read and check the post, send it to the API, and answer a
 * refusal the way every form does (portalRefusal: the fields the API names, in the form's words;
 * the session's end goes to sign in). What was typed comes back with any refusal.
 */
export const sendPortalForm = async <
  TField extends string,
  TValues extends Record<TField, TFormValue>,
  TInput,
  TData,
>(
  data: FormData,
  form: TPortalForm<TField, TValues, TInput>,
  send: (input: TInput) => Promise<TSiteResult<TData>>,
): Promise<
  | { ok: true; data: TData; values: TValues }
  | { ok: false; state: TCheckedFormState<TField, TValues> }
> => {
  const read = readPortalForm(data, form);
  if (!read.ok) {
    return read;
  }
  const answer = await send(read.input);
  if (answer.ok) {
    return { ok: true, data: answer.data, values: read.values };
  }
  return {
    ok: false,
    state: refusedPortalForm(read.values, form, portalRefusal(answer.failure, form.words)),
  };
};
