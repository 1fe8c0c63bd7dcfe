'use client';

import { CircleAlert } from 'lucide-react';
import { useActionState, useEffect, useRef } from 'react';
import { signIn, type TSignInState } from './actions';

const INITIAL: TSignInState = {};

/**
 * The staff key, typed once. A real form posting to the signIn server action: it works without
 * JavaScript; with it, the refusal is announced and focused. The key is never sent back.
 */
export const SignInForm = ({ returnTo }: { returnTo: string | undefined }) => {
  const [state, formAction, isPending] = useActionState(signIn, INITIAL);
  const errorRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (state.error) {
      errorRef.current?.focus();
    }
  }, [state]);

  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {returnTo ? <input type="hidden" name="next" value={returnTo} /> : null}
      {state.error && !isPending ? (
        <p className="form__error" role="alert" tabIndex={-1} ref={errorRef} id="sign-in-error">
          <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />
          {state.error}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="staff-key" className="field__label">
          Staff key
        </label>
        <p id="staff-key-hint" className="field__hint">
          Your own key, starting with pets_live_ or pets_test_. It stays on our server.
        </p>
        <input
          id="staff-key"
          name="apiKey"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? 'staff-key-hint sign-in-error' : 'staff-key-hint'}
          className="input"
        />
      </div>
      <div className="form__actions">
        <button type="submit" className="button" disabled={isPending}>
          {isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </div>
    </form>
  );
};
