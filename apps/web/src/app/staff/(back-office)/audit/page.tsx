import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { staffReadFailure } from '@/components/staff-read-failure';
import { StoreTime } from '@/components/store-time';
import { requireAdmin } from '@/lib/session';
import { listAuditLog, listTeam, type TAuditQuery } from '@/lib/site-api';

export const metadata: Metadata = { title: 'Audit log' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The actions a person can pick; the log may hold others (they show, unfiltered). */
const ACTIONS = [
  ['order.approved', 'Approved an application'],
  ['order.declined', 'Declined an application'],
  ['order.completed', 'Completed an adoption'],
  ['order.cancelled', 'Cancelled an application'],
  ['order.note_added', 'Added a note'],
  ['order.question_added', 'Asked the adopter'],
  ['session.started', 'Signed in'],
  ['session.ended', 'Signed out'],
  ['session.ended_everywhere', 'Signed out everywhere'],
  ['account.invited', 'Invited someone'],
  ['account.invitation_accepted', 'Joined the team'],
  ['account.role_changed', "Changed someone's role"],
  ['account.deactivated', 'Deactivated someone'],
  ['account.reactivated', 'Reactivated someone'],
  ['account.password_changed', 'Changed their password'],
  ['account.password_reset', 'Reset their password'],
] as const;

const ID = /^[1-9][0-9]{0,17}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ACTION = /^[a-z_]+(\.[a-z_]+)*$/;

/** The filters of the URL that are well formed; anything else is left out. */
const queryOf = (raw: Record<string, string | string[] | undefined>): TAuditQuery => {
  const actor = first(raw.actor);
  const action = first(raw.action);
  const from = first(raw.from);
  const to = first(raw.to);
  const before = first(raw.before);
  return {
    ...(actor && ID.test(actor) ? { actor } : {}),
    ...(action && action.length <= 64 && ACTION.test(action) ? { action } : {}),
    ...(from && DAY.test(from) ? { from } : {}),
    ...(to && DAY.test(to) ? { to } : {}),
    ...(before && ID.test(before) ? { before } : {}),
  };
};

/**
 * Admins only: who did what, newest first. The filters are a GET form (it works without
 * JavaScript, and a filtered page is a link to share); "Older" pages on.
 */
const AuditPage = async ({ searchParams }: TProps) => {
  await connection();
  const admin = await requireAdmin();
  const query = queryOf(await searchParams);
  const [log, team] = await Promise.all([
    listAuditLog(admin.apiKey, query),
    listTeam(admin.apiKey),
  ]);
  if (!log.ok) {
    return staffReadFailure(
      log.failure.kind === 'signed-out' ? { kind: 'signed-out' } : { kind: 'failed' },
      '/staff/audit',
    );
  }
  const people = team.ok ? team.data : [];
  const { before: _before, ...filters } = query;
  const older = log.data.nextBefore
    ? `/staff/audit?${new URLSearchParams({ ...filters, before: log.data.nextBefore })}`
    : undefined;
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Audit log</h1>
        <p className="lead">Who did what in the back office, newest first. Days are UTC days.</p>
      </div>
      <form method="get" action="/staff/audit" className="queue__filter form">
        <div className="field">
          <label htmlFor="audit-actor" className="field__label">
            Person
          </label>
          <select id="audit-actor" name="actor" defaultValue={query.actor ?? ''} className="input">
            <option value="">Everyone</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name} ({person.email})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-action" className="field__label">
            Action
          </label>
          <select
            id="audit-action"
            name="action"
            defaultValue={query.action ?? ''}
            className="input"
          >
            <option value="">Any action</option>
            {ACTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-from" className="field__label">
            From
          </label>
          <input
            id="audit-from"
            name="from"
            type="date"
            defaultValue={query.from}
            className="input"
          />
        </div>
        <div className="field">
          <label htmlFor="audit-to" className="field__label">
            To
          </label>
          <input id="audit-to" name="to" type="date" defaultValue={query.to} className="input" />
        </div>
        <button type="submit" className="button button--secondary">
          Show
        </button>
      </form>
      {log.data.entries.length === 0 ? (
        <p role="status">Nothing was recorded for these filters.</p>
      ) : (
        <ol className="queue" aria-label="Audit entries">
          {log.data.entries.map((entry) => (
            <li key={entry.id} className="queue__item">
              <span className="queue__title">
                {entry.actorName}: {entry.action}
                {entry.targetType === 'order' ? (
                  <>
                    {' '}
                    <Link href={`/staff/applications/${entry.targetId}`}>
                      application A-{entry.targetId}
                    </Link>
                  </>
                ) : (
                  ` ${entry.targetType} ${entry.targetId}`
                )}
              </span>
              <span className="queue__meta">
                <StoreTime at={entry.at} />
              </span>
            </li>
          ))}
        </ol>
      )}
      <nav aria-label="Audit pages" className="pagination">
        {query.before ? (
          <Link href={`/staff/audit?${new URLSearchParams(filters)}`}>Newest</Link>
        ) : null}
        {older ? <Link href={older}>Older</Link> : null}
      </nav>
    </>
  );
};

export default AuditPage;
