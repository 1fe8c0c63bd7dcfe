'use client';

import { PASSWORD_LENGTH, PASSWORD_LENGTH_WORDS } from '@pets/contract/rules';
import { useActionState } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { changeOwnPassword, type TChangePasswordState } from './actions';

const INITIAL: TChangePasswordState = {};
const ERROR_ID = 'change-password-error';

const passwordInput = (name: string, autoComplete: string) => (control: object) => (
  <input
    {...control}
    name={name}
    type="password"
    autoComplete={autoComplete}
    maxLength={PASSWORD_LENGTH.max}
    required
    className="input"
  />
);

/** Current password, then the new one twice. Works without JavaScript. */
export const ChangePasswordForm = () => {
  const [state, formAction, isPending] = useActionState(changeOwnPassword, INITIAL);
  const errorRef = useFocusedError(state);
  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      {state.done && !isPending ? (
        <p className="notice" role="status">
          Your password is changed. Your other sessions have ended and your passkeys are removed:
          add them again from each device.
        </p>
      ) : null}
      <Field id="current-password" label="Current password" outsideErrorId={outside}>
        {passwordInput('current', 'current-password')}
      </Field>
      <Field
        id="new-password"
        label="New password"
        hint={`${PASSWORD_LENGTH_WORDS}.`}
        outsideErrorId={outside}
      >
        {passwordInput('password', 'new-password')}
      </Field>
      <Field id="repeat-password" label="New password again" outsideErrorId={outside}>
        {passwordInput('repeat', 'new-password')}
      </Field>
      <SubmitButton label="Change password" pendingLabel="Saving…" isPending={isPending} />
    </form>
  );
};
