import type { Metadata } from 'next';
import { NewPasswordForm } from '@/components/account/password-forms';
import { PageIntro } from '@/components/page-intro';
import { setNewPassword } from '../actions';

export const metadata: Metadata = {
  title: 'Choose a new password',
  robots: { index: false },
  // The token is in the path: no other site may see it in a Referer. Not `no-referrer`: with it,
  // the browser sends `Origin: null` with the page's form when script is off, which the edge
  // refuses as a form from another site.
  referrer: 'same-origin',
};

type TProps = { params: Promise<{ token: string }> };

/** A reset link from an email: choose a new password; every open session then ends. */
const NewPasswordPage = async ({ params }: TProps) => {
  const { token } = await params;
  return (
    <div className="narrow">
      <p className="staff-label">Staff area</p>
      <PageIntro title="Choose a new password">
        Once it is set, you are signed out everywhere and your passkeys are removed: you sign in
        with the new password, and add your passkeys again.
      </PageIntro>
      <NewPasswordForm token={token.slice(0, 200)} action={setNewPassword} />
    </div>
  );
};

export default NewPasswordPage;
