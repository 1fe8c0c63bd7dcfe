import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { PasskeysSection } from '@/components/account/passkeys-section';
import { AccountSessions } from '@/components/account-sessions';
import { portalReadFailure } from '@/components/portal-read-failure';
import { requireDeveloper } from '@/lib/session';
import { listPasskeys, listSessions } from '@/lib/site-api';
import {
  addOwnPasskey,
  addPasskeyOptions,
  passkeyOptions,
  removeOwnPasskey,
  renameOwnPasskey,
  signOutEverywhere,
} from '../actions';
import { endDeveloperSession } from './actions';

export const metadata: Metadata = { title: 'Your account' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The developer's own account: who they are, where they are signed in, password and passkeys. */
const DeveloperAccountPage = async ({ searchParams }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  const query = await searchParams;
  const [sessions, passkeys] = await Promise.all([
    listSessions(developer.apiKey),
    listPasskeys(developer.apiKey),
  ]);
  if (!sessions.ok) {
    return portalReadFailure(sessions.failure, '/developers/account');
  }
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
      <AccountSessions
        sessions={sessions.data}
        endAction={endDeveloperSession}
        ended={query.ended}
      />
      <form action={signOutEverywhere} className="form">
        <p className="field__hint">Left a session open somewhere you no longer reach?</p>
        <div className="form__actions">
          <button type="submit" className="button button--secondary">
            Sign out everywhere
          </button>
        </div>
      </form>
      <h2>Password</h2>
      <p>
        To change it, <Link href="/developers/reset">ask for a reset link</Link>: setting a new
        password signs you out everywhere and removes your passkeys. Your keys keep working.
      </p>
      <PasskeysSection
        passkeys={passkeys.data}
        remove={removeOwnPasskey}
        rename={renameOwnPasskey}
        start={addPasskeyOptions}
        finish={addOwnPasskey}
        confirmStart={passkeyOptions}
        isRemoved={query['passkey-removed'] !== undefined}
        renamed={
          typeof query['passkey-renamed'] === 'string' ? query['passkey-renamed'] : undefined
        }
      />
    </div>
  );
};

export default DeveloperAccountPage;
