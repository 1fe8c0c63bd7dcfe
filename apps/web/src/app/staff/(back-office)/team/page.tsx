import type { Metadata } from 'next';
import { connection } from 'next/server';
import { staffReadFailure } from '@/components/staff-read-failure';
import { requireAdmin } from '@/lib/session';
import { listTeam } from '@/lib/site-api';
import { changeMember } from './actions';
import { InviteForm } from './invite-form';

export const metadata: Metadata = { title: 'Team' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const STATUS = { active: 'active', invited: 'invited', deactivated: 'deactivated' } as const;

/** Admins only: who works in the back office; invite, change a role, deactivate, reactivate. */
const TeamPage = async ({ searchParams }: TProps) => {
  await connection();
  const admin = await requireAdmin();
  const query = await searchParams;
  const team = await listTeam(admin.apiKey);
  if (!team.ok) {
    return staffReadFailure(
      team.failure.kind === 'signed-out' ? { kind: 'signed-out' } : { kind: 'failed' },
      '/staff/team',
    );
  }
  const refused = first(query.refused);
  const changed = first(query.changed);
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Team</h1>
        <p className="lead">Everyone who can sign in to the back office.</p>
      </div>
      {refused ? (
        <p className="notice" role="alert">
          {refused.slice(0, 300)}
        </p>
      ) : null}
      {changed ? (
        <p className="notice" role="status">
          Saved: {changed.slice(0, 254)}.
        </p>
      ) : null}
      <ul className="queue" aria-label="Team">
        {team.data.map((person) => {
          const isSelf = person.id === admin.accountId;
          return (
            <li key={person.id} className="queue__item">
              <span className="queue__title">{person.name}</span>
              <span className="queue__meta">
                {person.email} · {person.role} · {STATUS[person.status]}
                {person.emailVerified ? '' : ' · unconfirmed address'}
                {isSelf ? ' · you' : ''}
              </span>
              {isSelf ? null : (
                <form action={changeMember} className="queue__filter">
                  <input type="hidden" name="id" value={person.id} />
                  {person.status === 'deactivated' ? (
                    <button
                      type="submit"
                      name="change"
                      value="reactivate"
                      className="button button--small button--secondary"
                    >
                      Reactivate {person.name}
                    </button>
                  ) : (
                    <>
                      <button
                        type="submit"
                        name="change"
                        value={person.role === 'admin' ? 'staff' : 'admin'}
                        className="button button--small button--secondary"
                      >
                        {person.role === 'admin' ? 'Make staff' : 'Make admin'}
                        <span className="visually-hidden">: {person.name}</span>
                      </button>
                      <button
                        type="submit"
                        name="change"
                        value="deactivate"
                        className="button button--small button--secondary"
                      >
                        Deactivate {person.name}
                      </button>
                    </>
                  )}
                </form>
              )}
            </li>
          );
        })}
      </ul>
      <h2>Invite someone</h2>
      <InviteForm />
    </>
  );
};

export default TeamPage;
