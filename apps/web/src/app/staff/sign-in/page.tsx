import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { readSession } from '@/lib/session';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Staff sign in', robots: { index: false } };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The door of the back office. Someone already signed in goes straight to the applications. */
const SignInPage = async ({ searchParams }: TProps) => {
  await connection();
  const query = await searchParams;
  const session = await readSession();
  if (session.role === 'staff' && session.apiKey && query.expired === undefined) {
    redirect('/staff/applications');
  }
  return (
    <div className="narrow">
      <p className="staff-label">Staff area</p>
      <div className="page-intro">
        <h1 className="page-title">Staff sign in</h1>
        <p className="lead">Sign in with your staff key to handle applications and animals.</p>
      </div>
      {query['signed-out'] !== undefined ? (
        <p className="notice" role="status">
          You are signed out.
        </p>
      ) : null}
      {query.expired !== undefined ? (
        <p className="notice" role="status">
          Your session has ended, or your key is no longer accepted. Please sign in again.
        </p>
      ) : null}
      <SignInForm />
    </div>
  );
};

export default SignInPage;
