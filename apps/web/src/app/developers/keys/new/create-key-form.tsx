'use client';

import { useActionState } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { createKey, type TKeyFormState } from '../../actions';
import { IssuedKey } from '../../issued-key';

const INITIAL: TKeyFormState = {};
const ERROR_ID = 'create-key-error';

/**
 * The new key's form; once the API has made it, the key itself, this once (the answer to this
 * POST, never stored). Works without JavaScript.
 */
export const CreateKeyForm = ({ today }: { today: string }) => {
  const [state, formAction, isPending] = useActionState(createKey, INITIAL);
  const errorRef = useFocusedError(state);
  if (state.issued) {
    return <IssuedKey issued={state.issued} heading="Your new key" />;
  }
  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field
        id="key-name"
        label="Name"
        hint="What uses it, so you know which key to roll or revoke: “Shelter app”, “CI”."
        outsideErrorId={outside}
      >
        {(control) => (
          <input {...control} name="name" type="text" maxLength={100} required className="input" />
        )}
      </Field>
      <fieldset className="field">
        <legend className="field__label">Mode</legend>
        <div className="choices">
          <label className="choice">
            <input type="radio" name="mode" value="test" defaultChecked className="choice__input" />
            Test: reads the store's data, never changes a live store
          </label>
          <label className="choice">
            <input type="radio" name="mode" value="live" className="choice__input" />
            Live: acts for your organisation
          </label>
        </div>
      </fieldset>
      <label className="choice">
        <input type="checkbox" name="readOnly" className="choice__input" />
        Read-only: this key may only read
      </label>
      <Field
        id="key-expiry"
        label="Expires on (optional)"
        hint="At most a year ahead. Empty: the key works until you revoke it."
        outsideErrorId={outside}
      >
        {(control) => (
          <input {...control} name="expiresOn" type="date" min={today} className="input" />
        )}
      </Field>
      <SubmitButton label="Create the key" pendingLabel="Creating…" isPending={isPending} />
    </form>
  );
};
