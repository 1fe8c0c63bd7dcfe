'use client';

import { useActionState, useEffect, useRef } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { signIn, type TSignInState } from './actions';

const INITIAL: TSignInState = {};
const ERROR_ID = 'sign-in-error';

/**
 * The staff key, typed once. A real form posting to the signIn server action: it works without
 * JavaScript; with it, the refusal is announced and focused. The key is never sent back.
 */
export const SignInForm = ({ returnTo }: { returnTo: string | undefined }) => {
  const [state, formAction, isPending] = useActionState(signIn, INITIAL);
  const errorRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (state.error) {
      errorRef.current?.focus();
    }
  }, [state]);

  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {returnTo ? <input type="hidden" name="next" value={returnTo} /> : null}
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field
        id="staff-key"
        label="Staff key"
        hint="Your own key, starting with pets_live_ or pets_test_. It stays on our server."
        outsideErrorId={state.error ? ERROR_ID : undefined}
      >
        {(control) => (
          <input
            {...control}
            name="apiKey"
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            className="input"
          />
        )}
      </Field>
      <SubmitButton label="Sign in" pendingLabel="Signing in…" isPending={isPending} />
    </form>
  );
};
