import { isEmailAddress, PASSWORD_LENGTH, PASSWORD_LENGTH_WORDS } from '@pets/contract/rules';
import type { TCheckedFormState } from '@/components/form/use-checked-form';

/**
 * The sign-in and password forms of both areas (/staff, /developers) as the browser holds them,
 * with the checks the browser makes before sending and the server actions again
 * (account-forms.ts). A password is never sent back to the page: after a refusal it is typed
 * again.
 */

type TCheck<TField extends string> =
  | { success: true }
  | { success: false; fieldErrors: Partial<Record<TField, string>> };

const result = <TField extends string>(
  fieldErrors: Partial<Record<TField, string>>,
): TCheck<TField> =>
  Object.keys(fieldErrors).length === 0 ? { success: true } : { success: false, fieldErrors };

export const SIGN_IN_FIELDS = ['email', 'password'] as const;
export type TSignInField = (typeof SIGN_IN_FIELDS)[number];
/** What the sign-in form shows after a refusal, and the email typed (never the password). */
export type TSignInState = TCheckedFormState<TSignInField>;
export const EMPTY_SIGN_IN: TSignInState['values'] = { email: '', password: '' };

export const checkSignIn = (values: TSignInState['values']): TCheck<TSignInField> =>
  result({
    ...(values.email.trim() === '' ? { email: 'Enter your email address.' } : {}),
    ...(values.password === '' ? { password: 'Enter your password.' } : {}),
  });

export const RESET_FIELDS = ['email'] as const;
export type TResetField = (typeof RESET_FIELDS)[number];
/** "Email me a reset link": the address typed, and whether the link is on its way. */
export type TResetState = TCheckedFormState<TResetField> & { sent?: boolean };
export const EMPTY_RESET: TResetState['values'] = { email: '' };
export const RESET_EMAIL_WORDS = 'Enter the email address you sign in with.';

export const checkReset = (values: TResetState['values']): TCheck<TResetField> =>
  result(isEmailAddress(values.email.trim()) ? {} : { email: RESET_EMAIL_WORDS });

export const NEW_PASSWORD_FIELDS = ['password', 'repeat'] as const;
export type TNewPasswordField = (typeof NEW_PASSWORD_FIELDS)[number];
/** A reset link's new password: what went wrong (the passwords are typed again). */
export type TNewPasswordState = TCheckedFormState<TNewPasswordField>;
export const EMPTY_NEW_PASSWORD: TNewPasswordState['values'] = { password: '', repeat: '' };
export const PASSWORD_LENGTH_PROBLEM = `Choose a password of ${PASSWORD_LENGTH_WORDS}.`;
export const PASSWORDS_DIFFER = 'The two passwords are not the same.';

/** The words of a new password's refusal, if any: the API's own rule (ZPassword), said first here. */
export const passwordProblem = (password: string, repeated: string): string | undefined => {
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    return PASSWORD_LENGTH_PROBLEM;
  }
  if (password !== repeated) {
    return PASSWORDS_DIFFER;
  }
  return undefined;
};

/** The same check, each problem under the field it is about. */
export const checkNewPassword = (
  values: TNewPasswordState['values'],
): TCheck<TNewPasswordField> => {
  const problem = passwordProblem(values.password, values.repeat);
  if (problem === undefined) {
    return { success: true };
  }
  return {
    success: false,
    fieldErrors: problem === PASSWORDS_DIFFER ? { repeat: problem } : { password: problem },
  };
};
