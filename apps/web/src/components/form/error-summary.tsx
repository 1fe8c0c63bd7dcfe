import type { RefObject } from 'react';
import { FormError } from './form-error';

type TProps<TField extends string> = {
  id: string;
  /** A problem with the whole submission (rate limited, the API unreachable, a refusal). */
  formError?: string;
  fieldErrors: Partial<Record<TField, string>>;
  /** In the form's order, each with its control's id: the summary links to the control. */
  fields: readonly TField[];
  fieldIds: Record<TField, string>;
  focusRef?: RefObject<HTMLElement | null>;
};

/**
 * What needs another look before the form can go, above the form: its own error, and each
 * field's error (also shown under the field) as a link to that field, so a person who lands on the
 * summary, or hears it, finds every problem. Nothing while there is none.
 */
export const ErrorSummary = <TField extends string>({
  id,
  formError,
  fieldErrors,
  fields,
  fieldIds,
  focusRef,
}: TProps<TField>) => {
  const listed = fields.filter((field) => fieldErrors[field]);
  if (!formError && listed.length === 0) {
    return null;
  }
  return (
    <FormError as="div" id={id} focusRef={focusRef}>
      <div>
        <p>{formError ?? 'Please check the form:'}</p>
        {listed.length > 0 ? (
          <ul className="form__summary-list">
            {listed.map((field) => (
              <li key={field}>
                <a href={`#${fieldIds[field]}`}>{fieldErrors[field]}</a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </FormError>
  );
};
