'use client';

import { CircleCheck } from 'lucide-react';
import Link from 'next/link';
import { type ReactNode, useActionState } from 'react';
import { FormError } from '@/components/form/form-error';
import { useFocusOnAnswer } from '@/components/form/use-focus-on-answer';
import { BULK_EDIT_MAX, BULK_GROUPS, bulkChangeWords } from '@/lib/staff-animals';
import { setOneField, type TBulkEditState } from './bulk-actions';

type TProps = {
  /** The table of animals, each row with its checkbox named `pet`. */
  children: ReactNode;
  /** "Select all on this page" and "Clear the selection": the list's address with and without. */
  selectAllHref: string;
  clearHref: string;
  isAllSelected: boolean;
};

const INITIAL: TBulkEditState = { failures: [] };

const hasAnswer = (state: TBulkEditState) =>
  state.summary !== undefined || state.error !== undefined;

/**
 * "Set one field" on the ticked animals of the list: one form around the table, so it is sent
 * without JavaScript too. One choice names the field and its value. The answer appears above the
 * table and takes the focus; what could not be changed is listed by name, with why.
 */
export const BulkEditForm = ({ children, selectAllHref, clearHref, isAllSelected }: TProps) => {
  const [state, formAction, isPending] = useActionState(setOneField, INITIAL);
  const answerRef = useFocusOnAnswer(state, hasAnswer);
  const describedBy = state.errorField === 'change' ? 'bulk-error' : 'bulk-hint';
  return (
    <form action={formAction} className="bulk" aria-busy={isPending} aria-label="Animals">
      <div ref={answerRef}>
        {state.error && !isPending ? <FormError id="bulk-error">{state.error}</FormError> : null}
        {state.summary && !isPending ? (
          <div
            className={state.failures.length > 0 ? 'form__error bulk__answer' : 'notice'}
            role={state.failures.length > 0 ? 'alert' : 'status'}
            tabIndex={-1}
          >
            {state.failures.length > 0 ? null : (
              <CircleCheck aria-hidden="true" focusable="false" className="field__error-icon" />
            )}
            <div>
              <p className="bulk__summary">{state.summary}</p>
              {state.failures.length > 0 ? (
                <>
                  <p>Not changed:</p>
                  <ul className="bulk__failures">
                    {state.failures.map((failure) => (
                      <li key={failure}>{failure}</li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          </div>
        ) : null}
      </div>
      <fieldset className="bulk__controls">
        <legend className="filters__label">Set one field on the ticked animals</legend>
        <p id="bulk-hint" className="field__hint">
          Tick the animals below (up to {BULK_EDIT_MAX}), choose a field and its value, and set it.
          Each animal is saved on its own, as on its edit page.
        </p>
        <div className="bulk__row">
          <label htmlFor="bulk-change" className="visually-hidden">
            Field and value
          </label>
          <select
            id="bulk-change"
            name="change"
            defaultValue=""
            className="select"
            aria-describedby={describedBy}
            aria-invalid={state.errorField === 'change' ? true : undefined}
          >
            <option value="">Choose a field and its value</option>
            {BULK_GROUPS.map((group) => (
              <optgroup key={group.field} label={group.label}>
                {group.changes.map((change) => (
                  <option key={change.key} value={change.key}>
                    {bulkChangeWords(group.label, change.words)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <button type="submit" className="button" disabled={isPending}>
            {isPending ? 'Setting…' : 'Set for ticked animals'}
          </button>
        </div>
        <p className="bulk__select">
          {isAllSelected ? (
            <Link href={clearHref}>Clear the selection</Link>
          ) : (
            <Link href={selectAllHref}>Select all on this page</Link>
          )}
        </p>
      </fieldset>
      {children}
    </form>
  );
};
