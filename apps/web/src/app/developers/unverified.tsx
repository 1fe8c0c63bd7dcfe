import { MailCheck } from 'lucide-react';
import { resendVerification } from './actions';

/**
 * What an account whose address is not confirmed yet sees of the portal: "check your email" and
 * a way to have the link sent again. Nothing else opens before the address is confirmed.
 */
const RESENT: Record<string, string> = {
  '1': 'A new link is on its way. Earlier links still work until they expire.',
  'too-many': 'Many links were asked for from here already. Please try again in an hour.',
  failed: "We can't send it right now. Please try again in a minute.",
};

export const Unverified = ({ email, resent }: { email: string; resent?: string }) => (
  <div className="narrow">
    <div className="page-intro">
      <h1 className="page-title">Check your email</h1>
      <p className="lead">
        We sent a link to <strong>{email}</strong>. Open it and press “Confirm my email address”;
        then you can create your keys. The link works for 24 hours.
      </p>
    </div>
    {resent && RESENT[resent] ? (
      <p className="notice" role="status">
        <MailCheck aria-hidden="true" focusable="false" className="button__icon" /> {RESENT[resent]}
      </p>
    ) : null}
    <form action={resendVerification} className="form">
      <p className="field__hint">
        Nothing arrived after a few minutes? Look in your spam folder, or:
      </p>
      <div className="form__actions">
        <button type="submit" className="button button--secondary">
          Send the link again
        </button>
      </div>
    </form>
  </div>
);
