import type { Metadata } from 'next';
import { connection } from 'next/server';
import { PasskeysSection } from '@/components/account/passkeys-section';
import { staffReadFailure } from '@/components/staff-read-failure';
import { StoreTime } from '@/components/store-time';
import { requireStaffKey } from '@/lib/session';
import { listPasskeys, listSessions } from '@/lib/site-api';
import { signOutEverywhere } from '../../sign-in/actions';
import { addOwnPasskey, addPasskeyOptions, endOneSession, removeOwnPasskey } from './actions';
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
      {query.ended !== undefined ? (
        <p className="notice" role="status">
          That session has ended.
        </p>
      ) : null}
      <h2>Where you are signed in</h2>
      <ul className="queue" aria-label="Sessions">
        {sessions.data.map((session) => (
          <li key={session.id} className="queue__item">
            <span className="queue__title">
              {session.isCurrent ? 'This device' : (session.userAgent ?? 'Unknown device')}
            </span>
            <span className="queue__meta">
              Signed in <StoreTime at={session.createdAt} /> · last seen{' '}
              <StoreTime at={session.lastSeenAt} />
              {session.visitorIp ? ` · from ${session.visitorIp}` : ''}
            </span>
            {session.isCurrent ? null : (
              <form action={endOneSession}>
                <input type="hidden" name="id" value={session.id} />
                <button type="submit" className="button button--small button--secondary">
                  Sign out this session
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <form action={signOutEverywhere}>
        <button type="submit" className="button button--secondary">
          Sign out everywhere
        </button>
      </form>
      <PasskeysSection
        passkeys={passkeys.data}
        remove={removeOwnPasskey}
        start={addPasskeyOptions}
        finish={addOwnPasskey}
        isRemoved={query['passkey-removed'] !== undefined}
      />
      <h2>Change your password</h2>
      <ChangePasswordForm />
    </>
  );
};

export default AccountPage;
