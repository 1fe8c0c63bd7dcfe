'use client';

import { PASSWORD_LENGTH, PASSWORD_LENGTH_WORDS } from '@pets/contract/rules';
import { type InputHTMLAttributes, useActionState } from 'react';
import { CheckedForm } from '@/components/form/checked-form';
import { Field, InputField } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import { useFocusedError } from '@/components/form/use-focused-error';
import {
  checkNewPassword,
  checkReset,
  EMPTY_NEW_PASSWORD,
  EMPTY_RESET,
  NEW_PASSWORD_FIELDS,
  RESET_FIELDS,
  type TNewPasswordField,
  type TNewPasswordState,
  type TResetField,
  type TResetState,
} from '@/lib/account-form-fields';

/** What the invitation's form shows after a refusal (never the password). */
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

const RESET_IDS: Record<TResetField, string> = { email: 'reset-email' };
const RESET_INITIAL: TResetState = { values: EMPTY_RESET, fieldErrors: {} };

/**
 * "Email me a reset link". The address typed stays after a refusal, which is said under it.
 * Works without JavaScript.
 */
export const ResetRequestForm = ({
  action,
}: {
  action: (previous: TResetState, data: FormData) => Promise<TResetState>;
}) => {
  const form = useCheckedForm({
    action,
    initialState: RESET_INITIAL,
    fields: RESET_FIELDS,
    fieldIds: RESET_IDS,
    validate: checkReset,
  });
  const { state, errors, bind } = form;
  if (state.sent) {
    return (
      <p className="notice" role="status">
        If an account has the address {state.values.email}, a link to reset its password is on its
        way. It works for an hour.
      </p>
    );
  }
  return (
    <CheckedForm form={form} summaryId={ERROR_ID}>
      <InputField
        id={RESET_IDS.email}
        label="Email"
        error={errors.email}
        input={{ ...bind('email'), type: 'email', autoComplete: 'username', maxLength: 254 }}
      />
      <SubmitButton label="Email me a link" pendingLabel="Sending…" isPending={form.isPending} />
    </CheckedForm>
  );
};

const NEW_PASSWORD_IDS: Record<TNewPasswordField, string> = {
  password: 'new-password',
  repeat: 'repeat-password',
};
const NEW_PASSWORD_INITIAL: TNewPasswordState = { values: EMPTY_NEW_PASSWORD, fieldErrors: {} };

/** The new password of a reset link; each problem under the field it is about. */
export const NewPasswordForm = ({
  token,
  action,
}: {
  token: string;
  action: (previous: TNewPasswordState, data: FormData) => Promise<TNewPasswordState>;
}) => {
  const form = useCheckedForm({
    action,
    initialState: NEW_PASSWORD_INITIAL,
    fields: NEW_PASSWORD_FIELDS,
    fieldIds: NEW_PASSWORD_IDS,
    validate: checkNewPassword,
  });
  const { errors, bind } = form;
  return (
    <CheckedForm form={form} summaryId={ERROR_ID}>
      <input type="hidden" name="token" value={token} />
      <NewPasswordField
        id={NEW_PASSWORD_IDS.password}
        label="New password"
        error={errors.password}
        input={bind('password')}
      />
      <Field id={NEW_PASSWORD_IDS.repeat} label="New password again" error={errors.repeat}>
        {newPasswordInput('repeat', bind('repeat'))}
      </Field>
      <SubmitButton label="Set my password" pendingLabel="Saving…" isPending={form.isPending} />
    </CheckedForm>
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
