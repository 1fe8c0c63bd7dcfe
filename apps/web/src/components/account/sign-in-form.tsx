'use client';

import Link from 'next/link';
import { useActionState, useEffect, useRef } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { signIn, type TSignInState } from './actions';

const INITIAL: TSignInState = {};
const ERROR_ID = 'sign-in-error';

/**
 * Email and password. A real form posting to the signIn server action: it works without
 * JavaScript; with it, the refusal is announced and focused. The password is never sent back.
 */
export const SignInForm = ({ returnTo }: { returnTo: string | undefined }) => {
  const [state, formAction, isPending] = useActionState(signIn, INITIAL);
  const errorRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (state.error) {
      errorRef.current?.focus();
    }
  }, [state]);

  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {returnTo ? <input type="hidden" name="next" value={returnTo} /> : null}
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field id="sign-in-email" label="Email" outsideErrorId={outside}>
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
      <Field id="sign-in-password" label="Password" outsideErrorId={outside}>
        {(control) => (
          <input
            {...control}
            name="password"
            type="password"
            autoComplete="current-password"
            maxLength={200}
            required
            className="input"
          />
        )}
      </Field>
      <SubmitButton label="Sign in" pendingLabel="Signing in…" isPending={isPending} />
      <p>
        <Link href="/staff/reset">Forgot your password?</Link>
      </p>
    </form>
  );
};
