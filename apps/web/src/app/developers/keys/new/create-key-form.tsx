'use client';

import { CheckedForm } from '@/components/form/checked-form';
import { ChoiceField, Field } from '@/components/form/field';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import { EMPTY_KEY, KEY_FIELDS, loadPortalChecks, type TKeyField } from '@/lib/portal-form-fields';
import { createKey, type TKeyFormState } from '../../actions';
import { IssuedKey } from '../../issued-key';

const INITIAL: TKeyFormState = { values: EMPTY_KEY, fieldErrors: {} };
const SUMMARY_ID = 'create-key-error';

const FIELD_IDS: Record<TKeyField, string> = {
  name: 'key-name',
  mode: 'key-mode-test',
  readOnly: 'key-read-only',
  expiresOn: 'key-expiry',
};

/**
 * The new key's form; once the API has made it, the key itself, this once (the answer to this
 * POST, never stored). A refusal keeps what was typed and ticked. Works without JavaScript.
 */
export const CreateKeyForm = ({ today }: { today: string }) => {
  const form = useCheckedForm({
    action: createKey,
    initialState: INITIAL,
    fields: KEY_FIELDS,
    fieldIds: FIELD_IDS,
    validate: async (values) => (await loadPortalChecks()).checkKey(values),
  });
  const { state, errors, bind, bindChoice } = form;
  if (state.issued) {
    return <IssuedKey issued={state.issued} heading="Your new key" />;
  }
  return (
    <CheckedForm form={form} summaryId={SUMMARY_ID} onFocus={() => void loadPortalChecks()}>
      <Field
        id={FIELD_IDS.name}
        label="Name"
        hint="What uses it, so you know which key to roll or revoke: “Shelter app”, “CI”."
        error={errors.name}
      >
        {(control) => (
          <input {...control} {...bind('name')} type="text" maxLength={100} className="input" />
        )}
      </Field>
      <ChoiceField id={FIELD_IDS.mode} legend="Mode" error={errors.mode}>
        <div className="choices">
          <label className="choice">
            <input
              id={FIELD_IDS.mode}
              type="radio"
              {...bindChoice('mode', 'test')}
              className="choice__input"
            />
            Test: reads the store's data, never changes a live store
          </label>
          <label className="choice">
            <input type="radio" {...bindChoice('mode', 'live')} className="choice__input" />
            Live: acts for your organisation
          </label>
        </div>
      </ChoiceField>
      <label className="choice">
        <input
          id={FIELD_IDS.readOnly}
          type="checkbox"
          {...bindChoice('readOnly', 'on')}
          className="choice__input"
        />
        Read-only: this key may only read
      </label>
      <Field
        id={FIELD_IDS.expiresOn}
        label="Expires on (optional)"
        hint="At most a year ahead. Empty: the key works until you revoke it."
        error={errors.expiresOn}
      >
        {(control) => (
          <input {...control} {...bind('expiresOn')} type="date" min={today} className="input" />
        )}
      </Field>
      <SubmitButton label="Create the key" pendingLabel="Creating…" isPending={form.isPending} />
    </CheckedForm>
  );
};
