import { AppError } from '../core/app-error';

/**
 * What a person may do only once their email address is confirmed: whatever writes to other
 * people in their name (a plan request emails every admin and staff member, an invitation emails
 * the invited) or mints credentials (API keys, webhook endpoints). Anyone can sign up with
 * someone else's address; until its owner opens the link, the account speaks for nobody
 * (docs/decisions.md, "Only confirmed addresses write to others or mint credentials").
 */
export type TGuardedAction =
  | 'asking for another plan'
  | 'inviting people'
  | 'creating keys'
  | 'adding webhook endpoints';

/** Throws `403 email_not_confirmed` for an account whose address is not confirmed. */
export const assertConfirmedAddress = (
  account: { emailVerifiedAt: Date | null } | { emailVerified: boolean },
  action: TGuardedAction,
): void => {
  const confirmed =
    'emailVerified' in account ? account.emailVerified : account.emailVerifiedAt !== null;
  if (!confirmed) {
    throw new AppError(
      'email_not_confirmed',
      `Confirm your email address before ${action}: open the link in the email we sent you, or ask for a new one.`,
    );
  }
};
