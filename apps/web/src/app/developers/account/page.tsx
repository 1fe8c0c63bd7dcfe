import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { PasskeysSection } from '@/components/account/passkeys-section';
import { portalReadFailure } from '@/components/portal-read-failure';
import { requireDeveloper } from '@/lib/session';
import { listPasskeys } from '@/lib/site-api';
import { addOwnPasskey, addPasskeyOptions, removeOwnPasskey, signOutEverywhere } from '../actions';

export const metadata: Metadata = { title: 'Your account' };

/** The developer's own account: who they are, their password, passkeys, signing out everywhere. */
type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const DeveloperAccountPage = async ({ searchParams }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  const query = await searchParams;
  const passkeys = await listPasskeys(developer.apiKey);
  if (!passkeys.ok) {
    return portalReadFailure(passkeys.failure, '/developers/account');
  }
  return (
    <div className="narrow">
      <div className="page-intro">
        <h1 className="page-title">Your account</h1>
        <p className="lead">
          Signed in as <strong>{developer.name}</strong> ({developer.email}).
        </p>
      </div>
      <h2>Password</h2>
      <p>
        To change it, <Link href="/developers/reset">ask for a reset link</Link>: setting a new
        password signs you out everywhere. Your keys keep working.
      </p>
      <PasskeysSection
        passkeys={passkeys.data}
        remove={removeOwnPasskey}
        start={addPasskeyOptions}
        finish={addOwnPasskey}
        isRemoved={query['passkey-removed'] !== undefined}
      />
      <h2>Sessions</h2>
      <form action={signOutEverywhere} className="form">
        <p className="field__hint">Signed in on another device too, or left a session open?</p>
        <div className="form__actions">
          <button type="submit" className="button button--secondary">
            Sign out everywhere
          </button>
        </div>
      </form>
    </div>
  );
};

export default DeveloperAccountPage;
