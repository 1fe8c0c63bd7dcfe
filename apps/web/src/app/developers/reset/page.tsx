import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetRequestForm } from '@/components/account/password-forms';
import { PageIntro } from '@/components/page-intro';
import { askForReset } from '../actions';

export const metadata: Metadata = { title: 'Reset your password', robots: { index: false } };

/** "Forgot your password?" for developers: a link by email, valid for an hour. */
const DeveloperResetPage = () => (
  <div className="narrow">
    <PageIntro title="Reset your password">
      Enter the email address you sign in with, and we will send you a link to choose a new
      password.
    </PageIntro>
    <ResetRequestForm action={askForReset} />
    <p>
      <Link href="/developers/sign-in">Back to sign in</Link>
    </p>
  </div>
);

export default DeveloperResetPage;
