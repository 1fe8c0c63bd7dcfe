import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetRequestForm } from '@/components/account/password-forms';
import { PageIntro } from '@/components/page-intro';
import { askForReset } from './actions';

export const metadata: Metadata = { title: 'Reset your password', robots: { index: false } };

/** "Forgot your password?": a link by email, valid for an hour. */
const ResetPage = () => (
  <div className="narrow">
    <p className="staff-label">Staff area</p>
    <PageIntro title="Reset your password">
      Enter the email address you sign in with, and we will send you a link to choose a new
      password.
    </PageIntro>
    <ResetRequestForm action={askForReset} />
    <p>
      <Link href="/staff/sign-in">Back to sign in</Link>
    </p>
  </div>
);

export default ResetPage;
