import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { PasskeySignIn } from '@/components/account/passkey-sign-in';
import { SignInForm } from '@/components/account/sign-in-form';
import { PageIntro } from '@/components/page-intro';
import { isSignedIn, safeReturnPath } from '@/lib/session';
import { passkeyOptions, passkeySignIn, signIn } from '../actions';

export const metadata: Metadata = { title: 'Developer sign in', robots: { index: false } };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const NOTICES: Record<string, string> = {
  'signed-out': 'You are signed out.',
  expired: 'Your session has ended. Please sign in again.',
  reset: 'Your password is set. Sign in with it now.',
  verified: 'Your email address is confirmed. Sign in to create your keys.',
  'signed-up': 'Your account is ready. Sign in, then confirm your email address.',
};

/** The portal's door. A developer already signed in goes straight on. */
const DeveloperSignInPage = async ({ searchParams }: TProps) => {
  await connection();
  const query = await searchParams;
  const back = safeReturnPath(first(query.next), 'developers');
  if (query.expired === undefined && (await isSignedIn('developers'))) {
    redirect(back ?? '/developers');
  }
  const notice = Object.keys(NOTICES).find((name) => query[name] !== undefined);
  return (
    <div className="narrow">
      <PageIntro title="Sign in to the developer portal">
        Your organisation's API keys and their usage.
      </PageIntro>
      {notice ? (
        <p className="notice" role="status">
          {NOTICES[notice]}
        </p>
      ) : null}
      <SignInForm action={signIn} returnTo={back} resetHref="/developers/reset" />
      <PasskeySignIn start={passkeyOptions} finish={passkeySignIn} returnTo={back} />
      <p>
        New here? <Link href="/developers/sign-up">Create a developer account</Link>
      </p>
    </div>
  );
};

export default DeveloperSignInPage;
