import type { FormEvent, ReactNode, RefObject } from 'react';
import { ErrorSummary } from './error-summary';

type TProps<TField extends string> = {
  /** What `useCheckedForm` returned for this form. */
  form: {
    formAction: (data: FormData) => void;
    onSubmit: (event: FormEvent<HTMLFormElement>) => void;
    isPending: boolean;
    state: { formError?: string };
    errors: Partial<Record<TField, string>>;
    formErrorRef: RefObject<HTMLElement | null>;
    fields: readonly TField[];
    fieldIds: Record<TField, string>;
  };
  /** The id of the summary above the fields. */
  summaryId: string;
  /** Loads the form's check once a field is focused, before it is needed. */
  onFocus?: () => void;
  children: ReactNode;
};

/**
 * A form checked with `useCheckedForm`: the form element posting to its server action (so it
 * works without JavaScript), the browser's own checks off (the form's words replace them), and
 * the summary of what needs another look above the fields, hidden while the form is sent.
 */
export const CheckedForm = <TField extends string>({
  form,
  summaryId,
  onFocus,
  children,
}: TProps<TField>) => (
  <form
    action={form.formAction}
    onSubmit={form.onSubmit}
    onFocus={onFocus}
    noValidate
    className="form"
    aria-busy={form.isPending}
  >
    {form.isPending ? null : (
      <ErrorSummary
        id={summaryId}
        formError={form.state.formError}
        fieldErrors={form.errors}
        fields={form.fields}
        fieldIds={form.fieldIds}
        focusRef={form.formErrorRef}
      />
    )}
    {children}
  </form>
);
