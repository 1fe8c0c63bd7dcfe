'use client';

import { PASSWORD_LENGTH } from '@pets/contract/rules';
import Link from 'next/link';
import { CheckedForm } from '@/components/form/checked-form';
import { InputField } from '@/components/form/field';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import {
  checkSignIn,
  EMPTY_SIGN_IN,
  SIGN_IN_FIELDS,
  type TSignInField,
  type TSignInState,
} from '@/lib/account-form-fields';

const INITIAL: TSignInState = { values: EMPTY_SIGN_IN, fieldErrors: {} };
const SUMMARY_ID = 'sign-in-error';
const FIELD_IDS: Record<TSignInField, string> = {
  email: 'sign-in-email',
  password: 'sign-in-password',
};

type TProps = {
  /** The area's sign-in server action (app/staff/sign-in, app/developers/sign-in). */
  action: (previous: TSignInState, data: FormData) => Promise<TSignInState>;
  returnTo: string | undefined;
  resetHref: string;
};

/**
 * Email and password, for the back office and the developer portal alike. A real form posting to
 * the area's sign-in server action: it works without JavaScript; with it, a missing field is said
 * under it before anything is sent, and a refusal is announced and focused. The email typed
 * stays; the password is never sent back.
 */
export const SignInForm = ({ action, returnTo, resetHref }: TProps) => {
  const form = useCheckedForm({
    action,
    initialState: INITIAL,
    fields: SIGN_IN_FIELDS,
    fieldIds: FIELD_IDS,
    validate: checkSignIn,
  });
  const { errors, bind } = form;
  return (
    <CheckedForm form={form} summaryId={SUMMARY_ID}>
      {returnTo ? <input type="hidden" name="next" value={returnTo} /> : null}
      <InputField
        id={FIELD_IDS.email}
        label="Email"
        error={errors.email}
        input={{ ...bind('email'), type: 'email', autoComplete: 'username', maxLength: 254 }}
      />
      <InputField
        id={FIELD_IDS.password}
        label="Password"
        error={errors.password}
        input={{
          ...bind('password'),
          type: 'password',
          autoComplete: 'current-password',
          maxLength: PASSWORD_LENGTH.max,
        }}
      />
      <SubmitButton label="Sign in" pendingLabel="Signing in…" isPending={form.isPending} />
      <p>
        <Link href={resetHref}>Forgot your password?</Link>
      </p>
    </CheckedForm>
  );
};
