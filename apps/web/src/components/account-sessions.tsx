import type { TSiteSession } from '@pets/contract/site';
import { StoreTime } from '@/components/store-time';

type TProps = {
  sessions: readonly TSiteSession[];
  /** The area's server action that ends one session (its form posts the session's `id`). */
  endAction: (data: FormData) => Promise<void>;
  /** What the last "End" did, from the page's query (`?ended=`, lib/end-one-session.ts). */
  ended?: string | string[];
};

const ENDED_WORDS = new Map<string, string>([
  ['done', 'That session has ended: that browser is asked to sign in again.'],
  ['gone', 'That session had already ended.'],
  ['failed', 'We could not end that session just now. Please try again.'],
]);

/** "Firefox on Windows", or the raw header when it could not be read, or nothing at all. */
const deviceOf = (session: TSiteSession): string =>
  session.device ?? session.userAgent ?? 'An unknown device';

/**
 * "Where you're signed in" on the account pages (staff and developers alike): every session of
 * the person that still works, newest first, the one in this browser marked "This device", each
 * other one with an "End" button. A plain form posting to the area's server action, so it works
 * without JavaScript; the API refuses the ended session's credential at once.
 */
export const AccountSessions = ({ sessions, endAction, ended }: TProps) => {
  const endedWords = typeof ended === 'string' ? ENDED_WORDS.get(ended) : undefined;
  return (
    <section className="account-sessions" aria-labelledby="account-sessions-title">
      <h2 id="account-sessions-title">Where you&rsquo;re signed in</h2>
      {endedWords ? (
        <p className="notice" role="status">
          {endedWords}
        </p>
      ) : null}
      <ul className="account-sessions__list" aria-label="Sessions">
        {sessions.map((session) => (
          <li key={session.id} className="account-sessions__item">
            <div className="account-sessions__about">
              <span className="account-sessions__device">
                {session.isCurrent ? 'This device' : deviceOf(session)}
              </span>
              <span className="account-sessions__meta">
                {session.isCurrent ? `${deviceOf(session)} · signed in ` : 'Signed in '}
                <StoreTime at={session.createdAt} /> · last seen{' '}
                <StoreTime at={session.lastSeenAt} /> · ends <StoreTime at={session.expiresAt} />
                {session.visitorIp ? ` · from ${session.visitorIp}` : null}
              </span>
            </div>
            {session.isCurrent ? null : (
              <form action={endAction}>
                <input type="hidden" name="id" value={session.id} />
                <button type="submit" className="button button--small button--secondary">
                  End
                  <span className="visually-hidden">
                    {' '}
                    the session on {deviceOf(session)}, signed in{' '}
                    <StoreTime at={session.createdAt} />
                  </span>
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
};
