import { orderStatusPagePath } from '@pets/contract/schemas';
import Link from 'next/link';
import { FormError } from '@/components/form/form-error';
import { withdrawMyApplication } from '../actions';

type TProps = {
  token: string;
  petName: string;
  /** Approved: the animal is held for this adopter, and goes to the people waiting. */
  isApproved: boolean;
  /** The adopter asked to withdraw (`?withdraw=confirm`): the confirmation, with its button. */
  isConfirming: boolean;
  /** The last try did not reach the API (`?withdraw=failed`). */
  hasFailed: boolean;
};

/**
 * "Withdraw my application" on the page a private link opens: a link to a confirmation that says
 * what follows, then one button. Plain links and a form, so it works without JavaScript, and a
 * stray click withdraws nothing.
 */
export const WithdrawApplication = ({
  token,
  petName,
  isApproved,
  isConfirming,
  hasFailed,
}: TProps) => {
  const here = orderStatusPagePath(token);
  if (!isConfirming && !hasFailed) {
    return (
      <p className="withdraw__start">
        Changed your mind?{' '}
        <Link href={`${here}?withdraw=confirm#withdraw-title`}>Withdraw my application</Link>
      </p>
    );
  }
  return (
    <section className="panel withdraw" aria-labelledby="withdraw-title">
      <h2 id="withdraw-title" className="panel__title" tabIndex={-1}>
        Withdraw your application?
      </h2>
      {hasFailed ? (
        <FormError>
          We could not withdraw your application just now. Nothing changed: please try again in a
          minute.
        </FormError>
      ) : null}
      <p>
        The store will stop considering your application for {petName}
        {isApproved ? `, and offer ${petName} to the people waiting` : ''}. The store is told at
        once, and we email you to confirm it. This cannot be undone: to adopt {petName} later, you
        would apply again.
      </p>
      <form action={withdrawMyApplication} className="form__actions">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className="button">
          Yes, withdraw my application
        </button>
        <Link href={here} className="button button--secondary">
          No, keep it
        </Link>
      </form>
    </section>
  );
};
