import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { PasskeySignIn } from '@/components/account/passkey-sign-in';
import { SignInForm } from '@/components/account/sign-in-form';
import { PageIntro } from '@/components/page-intro';
import { isSignedIn, safeReturnPath } from '@/lib/session';
import { passkeyOptions, passkeySignIn, signIn } from './actions';

export const metadata: Metadata = { title: 'Staff sign in', robots: { index: false } };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The door of the back office. Someone already signed in goes straight on (to the page that sent
 * them here, or the applications).
 */
const SignInPage = async ({ searchParams }: TProps) => {
  await connection();
  const query = await searchParams;
  const back = safeReturnPath(first(query.next));
  if (query.expired === undefined && (await isSignedIn())) {
    redirect(back ?? '/staff/applications');
  }
  return (
    <div className="narrow">
      <p className="staff-label">Staff area</p>
      <PageIntro title="Staff sign in">
        Sign in with your email and password to handle applications and animals.
      </PageIntro>
      {query['signed-out'] !== undefined ? (
        <p className="notice" role="status">
          {first(query['signed-out']) === 'everywhere'
            ? 'You are signed out everywhere: every session of your account has ended, on every device.'
            : 'You are signed out.'}
        </p>
      ) : null}
      {query.expired !== undefined ? (
        <p className="notice" role="status">
          Your session has ended. Please sign in again.
        </p>
      ) : null}
      {query.reset !== undefined ? (
        <p className="notice" role="status">
          Your password is set. Sign in with it now.
        </p>
      ) : null}
      <SignInForm action={signIn} returnTo={back} resetHref="/staff/reset" />
      <PasskeySignIn start={passkeyOptions} finish={passkeySignIn} returnTo={back} />
    </div>
  );
};

export default SignInPage;
