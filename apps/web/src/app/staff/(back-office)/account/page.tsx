import type { Metadata } from 'next';
import { connection } from 'next/server';
import { staffReadFailure } from '@/components/staff-read-failure';
import { StoreTime } from '@/components/store-time';
import { requireStaffKey } from '@/lib/session';
import { listSessions } from '@/lib/site-api';
import { signOutEverywhere } from '../../sign-in/actions';
import { endOneSession } from './actions';
import { ChangePasswordForm } from './change-password-form';

export const metadata: Metadata = { title: 'Your account' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The person's own account: where they are signed in, and their password. */
const AccountPage = async ({ searchParams }: TProps) => {
  await connection();
  const member = await requireStaffKey();
  const query = await searchParams;
  const sessions = await listSessions(member.apiKey);
  if (!sessions.ok) {
    return staffReadFailure(
      sessions.failure.kind === 'signed-out' ? { kind: 'signed-out' } : { kind: 'failed' },
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
      <h2>Change your password</h2>
      <ChangePasswordForm />
    </>
  );
};

export default AccountPage;
