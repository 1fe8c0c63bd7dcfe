import type { Metadata } from 'next';
import { connection } from 'next/server';
import { PasskeysSection } from '@/components/account/passkeys-section';
import { AccountSessions } from '@/components/account-sessions';
import { staffReadFailure } from '@/components/staff-read-failure';
import { requireStaffKey } from '@/lib/session';
import { listPasskeys, listSessions } from '@/lib/site-api';
import { passkeyOptions, signOutEverywhere } from '../../sign-in/actions';
import {
  addOwnPasskey,
  addPasskeyOptions,
  endOneSession,
  removeOwnPasskey,
  renameOwnPasskey,
} from './actions';
import { ChangePasswordForm } from './change-password-form';

export const metadata: Metadata = { title: 'Your account' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The person's own account: where they are signed in, their passkeys, and their password. */
const AccountPage = async ({ searchParams }: TProps) => {
  await connection();
  const member = await requireStaffKey();
  const query = await searchParams;
  const [sessions, passkeys] = await Promise.all([
    listSessions(member.apiKey),
    listPasskeys(member.apiKey),
  ]);
  if (!sessions.ok || !passkeys.ok) {
    const failure = !sessions.ok ? sessions.failure : !passkeys.ok ? passkeys.failure : undefined;
    return staffReadFailure(
      failure?.kind === 'signed-out' ? { kind: 'signed-out' } : { kind: 'failed' },
      '/staff/account',
    );
  }
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Your account</h1>
        <p className="lead">
          Signed in as <strong>{member.name}</strong> ({member.role}).
        </p>
      </div>
      <AccountSessions sessions={sessions.data} endAction={endOneSession} ended={query.ended} />
      <form action={signOutEverywhere}>
        <button type="submit" className="button button--secondary">
          Sign out everywhere
        </button>
      </form>
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
      <h2>Change your password</h2>
      <ChangePasswordForm />
    </>
  );
};

export default AccountPage;
