'use client';

import { PASSWORD_LENGTH, PASSWORD_LENGTH_WORDS } from '@pets/contract/rules';
import { type InputHTMLAttributes, useActionState } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';

/** What a password form shows after a refusal (never the password). */
type TPasswordFormState = { error?: string; email?: string; sent?: boolean };
type TPasswordAction = (
  previous: TPasswordFormState,
  data: FormData,
) => Promise<TPasswordFormState>;

const INITIAL: TPasswordFormState = {};
const ERROR_ID = 'password-form-error';

/** What a form that holds its values (useCheckedForm's `bind`) gives the input. */
type TBoundInput = Pick<InputHTMLAttributes<HTMLInputElement>, 'name' | 'value' | 'onChange'>;

/** A new password's input: the contract's length, and the hint that says it. */
const newPasswordInput = (name: string, bound?: TBoundInput) => (control: object) => (
  <input
    {...control}
    name={name}
    {...bound}
    type="password"
    autoComplete="new-password"
    minLength={PASSWORD_LENGTH.min}
    maxLength={PASSWORD_LENGTH.max}
    required
    className="input"
  />
);

/** The field a new password is chosen in (a reset, an invitation, a developer's sign-up). */
export const NewPasswordField = ({
  id,
  label,
  outside,
  error,
  input,
}: {
  id: string;
  label: string;
  /** The id of the form's own error, when that error is about this field too. */
  outside?: string | undefined;
  /** The error under the field. */
  error?: string | undefined;
  /** The value and its handler, for a form that holds what was typed. */
  input?: TBoundInput;
}) => (
  <Field
    id={id}
    label={label}
    hint={`${PASSWORD_LENGTH_WORDS}. A few words you will remember work well.`}
    outsideErrorId={outside}
    error={error}
  >
    {newPasswordInput('password', input)}
  </Field>
);

const NewPasswordFields = ({ outside }: { outside: string | undefined }) => (
  <>
    <NewPasswordField id="new-password" label="New password" outside={outside} />
    <Field id="repeat-password" label="New password again" outsideErrorId={outside}>
      {newPasswordInput('repeat')}
    </Field>
  </>
);

/** "Email me a reset link". Works without JavaScript. */
export const ResetRequestForm = ({ action }: { action: TPasswordAction }) => {
  const [state, formAction, isPending] = useActionState(action, INITIAL);
  const errorRef = useFocusedError(state);
  if (state.sent) {
    return (
      <p className="notice" role="status">
        If an account has the address {state.email}, a link to reset its password is on its way. It
        works for an hour.
      </p>
    );
  }
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field id="reset-email" label="Email" outsideErrorId={state.error ? ERROR_ID : undefined}>
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
      <SubmitButton label="Email me a link" pendingLabel="Sending…" isPending={isPending} />
    </form>
  );
};

/** The new password of a reset link. */
export const NewPasswordForm = ({ token, action }: { token: string; action: TPasswordAction }) => {
  const [state, formAction, isPending] = useActionState(action, INITIAL);
  const errorRef = useFocusedError(state);
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      <input type="hidden" name="token" value={token} />
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <NewPasswordFields outside={state.error ? ERROR_ID : undefined} />
      <SubmitButton label="Set my password" pendingLabel="Saving…" isPending={isPending} />
    </form>
  );
};

/** An invitation: the person's name and password. */
export const AcceptInviteForm = ({ token, action }: { token: string; action: TPasswordAction }) => {
  const [state, formAction, isPending] = useActionState(action, INITIAL);
  const errorRef = useFocusedError(state);
  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      <input type="hidden" name="token" value={token} />
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field
        id="invite-name"
        label="Your name"
        hint="As your colleagues will see it, for example on the applications you approve."
        outsideErrorId={outside}
      >
        {(control) => (
          <input
            {...control}
            name="name"
            type="text"
            autoComplete="name"
            maxLength={100}
            required
            className="input"
          />
        )}
      </Field>
      <NewPasswordFields outside={outside} />
      <SubmitButton label="Join the team" pendingLabel="Saving…" isPending={isPending} />
    </form>
  );
};
