'use client';

import { PASSWORD_LENGTH } from '@pets/contract/rules';
import Link from 'next/link';
import { useActionState } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';

/** What the sign-in form shows after a refusal, and the email typed (never the password). */
type TSignInState = { error?: string; email?: string };

const INITIAL: TSignInState = {};
const ERROR_ID = 'sign-in-error';

type TProps = {
  /** The area's sign-in server action (app/staff/sign-in, app/developers/sign-in). */
  action: (previous: TSignInState, data: FormData) => Promise<TSignInState>;
  returnTo: string | undefined;
  resetHref: string;
};

/**
 * Email and password, for the back office and the developer portal alike. A real form posting to
 * the area's sign-in server action: it works without JavaScript; with it, the refusal is announced
 * and focused. The password is never sent back.
 */
export const SignInForm = ({ action, returnTo, resetHref }: TProps) => {
  const [state, formAction, isPending] = useActionState(action, INITIAL);
  const errorRef = useFocusedError(state);

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
            maxLength={PASSWORD_LENGTH.max}
            required
            className="input"
          />
        )}
      </Field>
      <SubmitButton label="Sign in" pendingLabel="Signing in…" isPending={isPending} />
      <p>
        <Link href={resetHref}>Forgot your password?</Link>
      </p>
    </form>
  );
};
