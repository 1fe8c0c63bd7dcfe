'use client';

import { CheckedForm } from '@/components/form/checked-form';
import { Field } from '@/components/form/field';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import {
  EMPTY_ROLL,
  loadPortalChecks,
  ROLL_FIELDS,
  ROLL_OVERLAP_HOURS,
  type TRollField,
} from '@/lib/portal-form-fields';
import { rollKey, type TRollFormState } from '../../../actions';
import { IssuedKey } from '../../../issued-key';

const INITIAL: TRollFormState = { values: EMPTY_ROLL, fieldErrors: {} };
const SUMMARY_ID = 'roll-key-error';
const FIELD_IDS: Record<TRollField, string> = { overlapHours: 'roll-overlap' };

/**
 * The roll's overlap, then the new secret this once. A refusal keeps the overlap chosen. Works
 * without JavaScript.
 */
export const RollForm = ({ keyId, keyStart }: { keyId: string; keyStart: string }) => {
  const form = useCheckedForm({
    action: rollKey,
    initialState: INITIAL,
    fields: ROLL_FIELDS,
    fieldIds: FIELD_IDS,
    validate: async (values) => (await loadPortalChecks()).checkRoll(values),
  });
  const { state, errors, bind } = form;
  if (state.issued) {
    return <IssuedKey issued={state.issued} heading="The key's new secret" />;
  }
  return (
    <CheckedForm form={form} summaryId={SUMMARY_ID} onFocus={() => void loadPortalChecks()}>
      <input type="hidden" name="id" value={keyId} />
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
      <SubmitButton label="Roll the key" pendingLabel="Rolling…" isPending={form.isPending} />
    </CheckedForm>
  );
};
