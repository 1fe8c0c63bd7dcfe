import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { PageIntro } from '@/components/page-intro';
import { isSignedIn } from '@/lib/session';
import { SignUpForm } from './sign-up-form';

export const metadata: Metadata = { title: 'Create a developer account', robots: { index: false } };

/** Sign up: the developer and their organisation, on the free plan; then "check your email". */
const SignUpPage = async () => {
  await connection();
  if (await isSignedIn('developers')) {
    redirect('/developers');
  }
  return (
    <div className="narrow">
      <PageIntro title="Create a developer account">
        Build on the store's API: your organisation gets the free plan and its own keys, test and
        live.
      </PageIntro>
      <SignUpForm />
      <p>
        Have an account already? <Link href="/developers/sign-in">Sign in</Link>
      </p>
    </div>
  );
};

export default SignUpPage;
