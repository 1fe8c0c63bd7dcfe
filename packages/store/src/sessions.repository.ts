import { type ApiKeyEnvironment, type ApiKeyRole, prepare, sql, type TQueryable } from '@pets/db';
import { generateApiKey } from './api-key-format';

/**
 * The account_sessions table and each session's credential (issue 27, docs/decisions.md
 * "Sessions"): the credential is an api_keys row of kind 'session', named after the person, so
 * everything that works with a key (rate limits, orders, notes, idempotency, the key cache and its
 * revocation) works with it. Its idle timeout and absolute end are the session row's, read through
 * the key lookup's join. Ending a session sets `ended_at` and revokes its credential in the same
 * statement pair, on the caller's transaction.
 */

export type TEndReason =
  | 'sign_out'
  | 'everywhere'
  | 'revoked'
  | 'password'
  | 'reset'
  | 'deactivated';

export type TNewSession = {
  accountId: string;
  method: 'password' | 'passkey';
  idleSeconds: number;
  expiresAt: Date;
  userAgent: string | null;
  visitorIp: string | null;
  /** The credential's api_keys fields. */
  name: string;
  role: ApiKeyRole;
  environment: ApiKeyEnvironment;
};

export type TSession = {
  id: string;
  method: string;
  idleSeconds: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endedReason: string | null;
  userAgent: string | null;
  visitorIp: string | null;
};

const SESSION_COLUMNS = [
  'id',
  'method',
  'idle_seconds as idleSeconds',
  'created_at as createdAt',
  'last_seen_at as lastSeenAt',
  'expires_at as expiresAt',
  'ended_at as endedAt',
  'ended_reason as endedReason',
  'user_agent as userAgent',
  'visitor_ip as visitorIp',
] as const;

const INSERT_SESSION = prepare(
  (
    db,
    p: Pick<
      TNewSession,
      'accountId' | 'method' | 'idleSeconds' | 'expiresAt' | 'userAgent' | 'visitorIp'
    >,
  ) =>
    db
      .insertInto('account_sessions')
      .values({
        account_id: p.accountId,
        method: p.method,
        idle_seconds: p.idleSeconds,
        expires_at: p.expiresAt,
        user_agent: p.userAgent,
        visitor_ip: p.visitorIp,
      })
      .returning(SESSION_COLUMNS),
);

/** Kept apart from ApiKeysRepository's insert: a credential is made only here, with its session. */
const INSERT_CREDENTIAL = prepare(
  (
    db,
    p: {
      name: string;
      role: ApiKeyRole;
      environment: ApiKeyEnvironment;
      hash: string;
      start: string;
      accountId: string;
      sessionId: string;
    },
  ) =>
    db
      .insertInto('api_keys')
      .values({
        name: p.name,
        plan: 'business',
        environment: p.environment,
        role: p.role,
        hash: p.hash,
        start: p.start,
        kind: 'session',
        account_id: p.accountId,
        session_id: p.sessionId,
      })
      .returning(['id']),
);

const LIST_OPEN = prepare((db, p: { accountId: string; now: Date }) =>
  db
    .selectFrom('account_sessions')
    .select(SESSION_COLUMNS)
    .where('account_id', '=', p.accountId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', p.now)
    .orderBy('id', 'desc')
    .limit(100),
);

const BY_ID = prepare((db, p: { id: string; accountId: string }) =>
  db
    .selectFrom('account_sessions')
    .select(SESSION_COLUMNS)
    .where('id', '=', p.id)
    .where('account_id', '=', p.accountId),
);

/**
 * Ends the sessions chosen (one, or all of an account's but maybe one) and revokes their
 * credentials, returning the credentials' hashes so the process can drop them from its key cache.
 * One statement: a data-modifying CTE, so both tables change together even outside a transaction.
 */
const END_SESSIONS = prepare(
  (
    db,
    p: {
      accountId: string;
      sessionId: string | null;
      exceptSessionId: string | null;
      reason: string;
      now: Date;
    },
  ) =>
    db
      .with('ended', (qb) =>
        qb
          .updateTable('account_sessions')
          .set({ ended_at: p.now, ended_reason: p.reason })
          .where('account_id', '=', p.accountId)
          .where('ended_at', 'is', null)
          .where(sql<boolean>`(${p.sessionId}::bigint is null or id = ${p.sessionId}::bigint)`)
          .where(
            sql<boolean>`(${p.exceptSessionId}::bigint is null or id <> ${p.exceptSessionId}::bigint)`,
          )
          .returning('id'),
      )
      .updateTable('api_keys')
      .set({ revoked_at: sql<Date>`coalesce(api_keys.revoked_at, ${p.now}::timestamptz)` })
      .from('ended')
      .whereRef('api_keys.session_id', '=', 'ended.id')
      .returning(['api_keys.hash', 'api_keys.session_id as sessionId']),
);

/** Batched last-seen times (seconds since the epoch), only ever moved forward. */
const TOUCH = prepare((db, p: { ids: string[]; seenAt: Date[] }) =>
  db
    .updateTable('account_sessions')
    .from(
      sql<{
        id: string;
        seen: Date;
      }>`unnest(${p.ids}::bigint[], ${p.seenAt}::timestamptz[])`.as<'t'>(sql`t(id, seen)`),
    )
    .set({ last_seen_at: sql<Date>`greatest(account_sessions.last_seen_at, t.seen)` })
    .whereRef('account_sessions.id', '=', 't.id')
    .where('account_sessions.ended_at', 'is', null),
);

/**
 * Sessions that ended (signed out, ended by someone, idle past their timeout, or past their
 * absolute end) before `before`, whose credential nothing of lasting history points at: no order
 * placed with it and no note written with it (those keep the credential, which names the person).
 * Deleting the session deletes its credential (api_keys.session_id cascades), and with it the
 * credential's idempotency keys and usage hours; an animal created with it keeps no creator
 * (pets.created_by_api_key_id is set null: a staff credential's rights never depended on it).
 */
const SWEEP_ENDED = prepare((db, p: { before: Date; limit: number }) =>
  db.deleteFrom('account_sessions').where(
    sql<boolean>`id in (${db
      .selectFrom('account_sessions as s')
      .leftJoin('api_keys as k', 'k.session_id', 's.id')
      .select('s.id')
      .where(
        sql<boolean>`least(coalesce(s.ended_at, 'infinity'::timestamptz), s.expires_at, s.last_seen_at + make_interval(secs => s.idle_seconds)) < ${p.before}::timestamptz`,
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('orders').select('orders.id').whereRef('orders.api_key_id', '=', 'k.id'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('order_notes')
              .select('order_notes.id')
              .whereRef('order_notes.api_key_id', '=', 'k.id'),
          ),
        ),
      )
      .orderBy('s.id')
      .limit(p.limit)})`,
  ),
);

const toSession = (row: TSession): TSession => ({ ...row, id: String(row.id) });

export class SessionsRepository {
  constructor(private readonly db: TQueryable) {}

  /**
   * A new session and its credential: use on a transaction. The credential's key exists once, in
   * the return value.
   */
  async start(input: TNewSession): Promise<{ session: TSession; credential: string }> {
    const session = toSession(
      (await INSERT_SESSION.execute(this.db, input)).rows[0] as unknown as TSession,
    );
    const { key, hash, start } = generateApiKey(input.environment);
    await INSERT_CREDENTIAL.execute(this.db, {
      name: input.name,
      role: input.role,
      environment: input.environment,
      hash,
      start,
      accountId: input.accountId,
      sessionId: session.id,
    });
    return { session, credential: key };
  }

  /** The account's sessions still open, newest first (at most 100). */
  async listOpen(accountId: string, now = new Date()): Promise<TSession[]> {
    const { rows } = await LIST_OPEN.execute(this.db, { accountId, now });
    return rows.map((row) => toSession(row as unknown as TSession));
  }

  async find(accountId: string, id: string): Promise<TSession | null> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) {
      return null;
    }
    const row = (await BY_ID.execute(this.db, { id, accountId })).rows[0];
    return row ? toSession(row as unknown as TSession) : null;
  }

  /** Ends one of the account's sessions; the hashes of the credentials revoked (none: not open). */
  async end(accountId: string, sessionId: string, reason: TEndReason): Promise<string[]> {
    const { rows } = await END_SESSIONS.execute(this.db, {
      accountId,
      sessionId,
      exceptSessionId: null,
      reason,
      now: new Date(),
    });
    return rows.map((row) => row.hash);
  }

  /** Ends every open session of the account, but `exceptSessionId` when given. */
  async endAll(
    accountId: string,
    reason: TEndReason,
    exceptSessionId: string | null = null,
  ): Promise<string[]> {
    const { rows } = await END_SESSIONS.execute(this.db, {
      accountId,
      sessionId: null,
      exceptSessionId,
      reason,
      now: new Date(),
    });
    return rows.map((row) => row.hash);
  }

  /** Deletes at most `limit` sessions that ended before `before` (SWEEP_ENDED); answers how many. */
  async sweepEnded(before: Date, limit: number): Promise<number> {
    const result = await SWEEP_ENDED.execute(this.db, { before, limit });
    return result.rowCount ?? 0;
  }

  /**
   * Records when sessions were last used, in one statement for many sessions: the hook for a
   * periodic flusher (never one write per request). Times only move forward.
   */
  async touch(seen: ReadonlyMap<string, number>): Promise<void> {
    if (seen.size === 0) {
      return;
    }
    const ids = [...seen.keys()];
    await TOUCH.execute(this.db, {
      ids,
      seenAt: ids.map((id) => new Date(seen.get(id) ?? 0)),
    });
  }
}
