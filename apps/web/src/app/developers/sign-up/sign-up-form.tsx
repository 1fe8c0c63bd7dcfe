'use client';

import { NewPasswordField } from '@/components/account/password-forms';
import { CheckedForm } from '@/components/form/checked-form';
import { InputField } from '@/components/form/field';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import {
  EMPTY_SIGN_UP,
  loadPortalChecks,
  SIGN_UP_FIELDS,
  SIGN_UP_SECRETS,
  type TSignUpField,
} from '@/lib/portal-form-fields';
import { signUp, type TSignUpState } from '../actions';

const INITIAL: TSignUpState = { values: EMPTY_SIGN_UP, fieldErrors: {} };
const SUMMARY_ID = 'sign-up-error';

const FIELD_IDS: Record<TSignUpField, string> = {
  email: 'sign-up-email',
  password: 'sign-up-password',
  name: 'sign-up-name',
  organizationName: 'sign-up-organisation',
};

/**
 * Email, password, name and organisation. A refusal keeps what was typed; the password is never
 * sent back (with JavaScript the browser keeps it). Works without JavaScript.
 */
export const SignUpForm = () => {
  const form = useCheckedForm({
    action: signUp,
    initialState: INITIAL,
    fields: SIGN_UP_FIELDS,
    fieldIds: FIELD_IDS,
    validate: async (values) => (await loadPortalChecks()).checkSignUp(values),
    secretFields: SIGN_UP_SECRETS,
  });
  const { errors, bind } = form;
  return (
    <CheckedForm form={form} summaryId={SUMMARY_ID} onFocus={() => void loadPortalChecks()}>
      <InputField
        id={FIELD_IDS.email}
        label="Email"
        error={errors.email}
        input={{ ...bind('email'), type: 'email', autoComplete: 'username', maxLength: 254 }}
      />
      <NewPasswordField
        id={FIELD_IDS.password}
        label="Password"
        error={errors.password}
        input={bind('password')}
      />
      <InputField
        id={FIELD_IDS.name}
        label="Your name"
        error={errors.name}
        input={{ ...bind('name'), type: 'text', autoComplete: 'name', maxLength: 100 }}
      />
      <InputField
        id={FIELD_IDS.organizationName}
        label="Organisation"
        hint="Your company, shelter or project: its keys are shared by its members."
        error={errors.organizationName}
        input={{
          ...bind('organizationName'),
          type: 'text',
          autoComplete: 'organization',
          maxLength: 100,
        }}
      />
      <SubmitButton label="Create my account" pendingLabel="Creating…" isPending={form.isPending} />
    </CheckedForm>
  );
};
