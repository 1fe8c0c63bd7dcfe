'use client';

import { ErrorSummary } from '@/components/form/error-summary';
import { Field } from '@/components/form/field';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import {
  EMPTY_ROLL,
  ROLL_FIELDS,
  ROLL_OVERLAP_HOURS,
  type TRollField,
} from '@/lib/portal-form-fields';
import { rollKey, type TRollFormState } from '../../../actions';
import { IssuedKey } from '../../../issued-key';

const INITIAL: TRollFormState = { values: EMPTY_ROLL, fieldErrors: {} };
const SUMMARY_ID = 'roll-key-error';
const FIELD_IDS: Record<TRollField, string> = { overlapHours: 'roll-overlap' };

const loadCheck = () => import('@/lib/portal-form-checks');

/**
 * The roll's overlap, then the new secret this once. A refusal keeps the overlap chosen. Works
 * without JavaScript.
 */
export const RollForm = ({ keyId, keyStart }: { keyId: string; keyStart: string }) => {
  const { state, formAction, isPending, errors, formErrorRef, bind, onSubmit } = useCheckedForm({
    action: rollKey,
    initialState: INITIAL,
    fields: ROLL_FIELDS,
    fieldIds: FIELD_IDS,
    validate: async (values) => (await loadCheck()).checkRoll(values),
  });
  if (state.issued) {
    return <IssuedKey issued={state.issued} heading="The key's new secret" />;
  }
  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="form" aria-busy={isPending}>
      <input type="hidden" name="id" value={keyId} />
      {isPending ? null : (
        <ErrorSummary
          id={SUMMARY_ID}
          formError={state.formError}
          fieldErrors={errors}
          fields={ROLL_FIELDS}
          fieldIds={FIELD_IDS}
          focusRef={formErrorRef}
        />
      )}
      <Field
        id={FIELD_IDS.overlapHours}
        label={`The old secret (${keyStart}…) keeps working for`}
        error={errors.overlapHours}
      >
        {(control) => (
          <select {...control} {...bind('overlapHours')} className="input">
            {ROLL_OVERLAP_HOURS.map(({ hours, label }) => (
              <option key={hours} value={String(hours)}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <SubmitButton label="Roll the key" pendingLabel="Rolling…" isPending={isPending} />
    </form>
  );
};
