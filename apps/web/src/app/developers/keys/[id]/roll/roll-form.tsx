'use client';

import { useActionState } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { rollKey, type TKeyFormState } from '../../../actions';
import { IssuedKey } from '../../../issued-key';

const INITIAL: TKeyFormState = {};
const ERROR_ID = 'roll-key-error';

/** How long the old secret keeps working, as Stripe's roll offers it. */
const OVERLAPS = [
  { hours: 0, label: 'Stop the old secret now' },
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '24 hours' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
] as const;

/** The roll's overlap, then the new secret this once. Works without JavaScript. */
export const RollForm = ({ keyId, keyStart }: { keyId: string; keyStart: string }) => {
  const [state, formAction, isPending] = useActionState(rollKey, INITIAL);
  const errorRef = useFocusedError(state);
  if (state.issued) {
    return <IssuedKey issued={state.issued} heading="The key's new secret" />;
  }
  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      <input type="hidden" name="id" value={keyId} />
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field
        id="roll-overlap"
        label={`The old secret (${keyStart}…) keeps working for`}
        outsideErrorId={outside}
      >
        {(control) => (
          <select {...control} name="overlapHours" defaultValue="24" className="input">
            {OVERLAPS.map(({ hours, label }) => (
              <option key={hours} value={hours}>
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
