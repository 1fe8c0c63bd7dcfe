'use client';

import { useActionState } from 'react';
import { NewPasswordField } from '@/components/account/password-forms';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { signUp, type TSignUpState } from '../actions';

const INITIAL: TSignUpState = {};
const ERROR_ID = 'sign-up-error';

/** Email, password, name and organisation. Works without JavaScript; the password is never sent back. */
export const SignUpForm = () => {
  const [state, formAction, isPending] = useActionState(signUp, INITIAL);
  const errorRef = useFocusedError(state);
  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field id="sign-up-email" label="Email" outsideErrorId={outside}>
        {(control) => (
          <input
            {...control}
            name="email"
            type="email"
            autoComplete="username"
            defaultValue={state.email}
            maxLength={254}
            required
            className="input"
          />
        )}
      </Field>
      <NewPasswordField id="sign-up-password" label="Password" outside={outside} />
      <Field id="sign-up-name" label="Your name" outsideErrorId={outside}>
        {(control) => (
          <input
            {...control}
            name="name"
            type="text"
            autoComplete="name"
            defaultValue={state.name}
            maxLength={100}
            required
            className="input"
          />
        )}
      </Field>
      <Field
        id="sign-up-organisation"
        label="Organisation"
        hint="Your company, shelter or project: its keys are shared by its members."
        outsideErrorId={outside}
      >
        {(control) => (
          <input
            {...control}
            name="organizationName"
            type="text"
            autoComplete="organization"
            defaultValue={state.organizationName}
            maxLength={100}
            required
            className="input"
          />
        )}
      </Field>
      <SubmitButton label="Create my account" pendingLabel="Creating…" isPending={isPending} />
    </form>
  );
};
