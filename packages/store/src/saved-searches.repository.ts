import { prepare, sql, type TQueryable } from '@pets/db';
import type { Pool } from 'pg';

/**
 * The saved_searches table (issue 28): a visitor's "email me when a new animal matches". Each row
 * keeps the address, the listPets filter (validated by the contract's ZSavedSearchFilter before it
 * is written, and again when read) and the SHA-256 of its two link tokens; the tokens themselves
 * are made from the row's id by an HMAC (apps/api/src/links/saved-search-links.ts), so neither
 * this table nor the outbox holds one. A search gets alerts once confirmed, until unsubscribed,
 * at most one per SAVED_SEARCH_ALERT_HOURS (`last_alert_at`).
 */

/** A search an alert may be due for: the animals it would list became available after `since`. */
export type TDueSearch = { id: string; email: string; filter: unknown; since: Date };

const NEXT_ID = prepare((db) =>
  db.selectNoFrom(sql<string>`nextval('saved_searches_id_seq')::text`.as('id')),
);

const INSERT = prepare(
  (
    db,
    p: {
      id: string;
      email: string;
      filter: string;
      confirmTokenHash: string;
      unsubscribeTokenHash: string;
    },
  ) =>
    db.insertInto('saved_searches').values({
      id: p.id,
      email: p.email,
      filter: sql`${p.filter}::jsonb`,
      confirm_token_hash: p.confirmTokenHash,
      unsubscribe_token_hash: p.unsubscribeTokenHash,
    }),
);

/** An address's searches that alert (confirmed, not unsubscribed), and those made since `since`. */
const COUNTS = prepare((db, p: { email: string; since: Date }) =>
  db
    .selectFrom('saved_searches')
    .select([
      sql<string>`count(*) filter (where confirmed_at is not null and unsubscribed_at is null)::text`.as(
        'active',
      ),
      sql<string>`count(*) filter (where created_at > ${p.since})::text`.as('recent'),
    ])
    .where('email', '=', p.email),
);

/** Confirms once (a second confirm changes nothing); not after unsubscribing or the link's end. */
const CONFIRM = prepare((db, p: { hash: string; createdAfter: Date }) =>
  db
    .updateTable('saved_searches')
    .set({ confirmed_at: sql`coalesce(confirmed_at, now())` })
    .where('confirm_token_hash', '=', p.hash)
    .where('unsubscribed_at', 'is', null)
    .where((eb) =>
      eb.or([eb('confirmed_at', 'is not', null), eb('created_at', '>', p.createdAfter)]),
    )
    .returning(['filter']),
);

/** Unsubscribes once: a second click answers the same and moves nothing. */
const UNSUBSCRIBE = prepare((db, p: { hash: string }) =>
  db
    .updateTable('saved_searches')
    .set({ unsubscribed_at: sql`coalesce(unsubscribed_at, now())` })
    .where('unsubscribe_token_hash', '=', p.hash)
    .returning(['filter']),
);

/** The searches that alert, grouped by their filter (jsonb equality: the same keys and values). */
const WAITING = prepare((db) =>
  db
    .selectFrom('saved_searches')
    .select(['filter', sql<string>`count(*)::text`.as('searches')])
    .where('confirmed_at', 'is not', null)
    .where('unsubscribed_at', 'is', null)
    .groupBy('filter')
    .orderBy(sql`count(*)`, 'desc'),
);

/** Searches an alert may be due for, oldest first; `dueBefore`: their last alert was earlier. */
const DUE = prepare((db, p: { dueBefore: Date; afterId: string; limit: number }) =>
  db
    .selectFrom('saved_searches')
    .select([
      sql<string>`id::text`.as('id'),
      'email',
      'filter',
      sql<Date>`coalesce(last_alert_at, confirmed_at)`.as('since'),
    ])
    .where('confirmed_at', 'is not', null)
    .where('unsubscribed_at', 'is', null)
    .where((eb) => eb.or([eb('last_alert_at', 'is', null), eb('last_alert_at', '<=', p.dueBefore)]))
    .where('id', '>', p.afterId)
    // The table's bigint id, not the selected text one: as text "10" sorts before "9", and the
    // walk by `id > afterId` would skip searches.
    .orderBy('saved_searches.id')
    .limit(p.limit),
);

/** The same search, locked for the alert's transaction, if still due (another worker may have sent it). */
const LOCK_DUE = prepare((db, p: { id: string; dueBefore: Date }) =>
  db
    .selectFrom('saved_searches')
    .select([sql<Date>`coalesce(last_alert_at, confirmed_at)`.as('since')])
    .where('id', '=', p.id)
    .where('confirmed_at', 'is not', null)
    .where('unsubscribed_at', 'is', null)
    .where((eb) => eb.or([eb('last_alert_at', 'is', null), eb('last_alert_at', '<=', p.dueBefore)]))
    .forUpdate()
    .skipLocked(),
);

const MARK_ALERTED = prepare((db, p: { id: string }) =>
  db.updateTable('saved_searches').set({ last_alert_at: sql`now()` }).where('id', '=', p.id),
);

/**
 * The animals that became available after `since` (created available, or their status changed to
 * available), newest first, by the events each of those changes recorded (kept
 * EVENT_RETENTION_DAYS, far longer than a day between alerts).
 */
const NEWLY_AVAILABLE = prepare((db, p: { since: Date; limit: number }) =>
  db
    .selectFrom('events')
    .select([sql<string>`(data->>'id')`.as('petId'), sql<Date>`max(created_at)`.as('at')])
    .where('type', 'in', ['pet.created', 'pet.status_changed'])
    .where(sql<boolean>`data->>'status' = 'available'`)
    .where('created_at', '>', p.since)
    .groupBy(sql`data->>'id'`)
    .orderBy(sql`max(id)`, 'desc')
    .limit(p.limit),
);

export class SavedSearchesRepository {
  constructor(private readonly pool: Pool) {}

  /** A new row's id, before it is written (its tokens are made from it). */
  async nextId(client: TQueryable): Promise<string> {
    const { rows } = await NEXT_ID.execute(client, {});
    return String(rows[0]?.id);
  }

  async insert(
    client: TQueryable,
    search: {
      id: string;
      email: string;
      filter: unknown;
      confirmTokenHash: string;
      unsubscribeTokenHash: string;
    },
  ): Promise<void> {
    await INSERT.execute(client, { ...search, filter: JSON.stringify(search.filter) });
  }

  /** How many searches of the address alert, and how many it made since `since`. */
  async countsOf(
    client: TQueryable,
    email: string,
    since: Date,
  ): Promise<{ active: number; recent: number }> {
    const { rows } = await COUNTS.execute(client, { email, since });
    return { active: Number(rows[0]?.active ?? 0), recent: Number(rows[0]?.recent ?? 0) };
  }

  /** The confirmed search's filter; undefined when no search waits for this confirm token. */
  async confirm(hash: string, createdAfter: Date): Promise<unknown> {
    const { rows } = await CONFIRM.execute(this.pool, { hash, createdAfter });
    return rows[0]?.filter;
  }

  /** The unsubscribed search's filter; undefined when no search has this unsubscribe token. */
  async unsubscribe(hash: string): Promise<unknown> {
    const { rows } = await UNSUBSCRIBE.execute(this.pool, { hash });
    return rows[0]?.filter;
  }

  async waiting(): Promise<{ filter: unknown; searches: number }[]> {
    const { rows } = await WAITING.execute(this.pool, {});
    return rows.map((row) => ({ filter: row.filter, searches: Number(row.searches) }));
  }

  async due(dueBefore: Date, afterId: string, limit: number): Promise<TDueSearch[]> {
    const { rows } = await DUE.execute(this.pool, { dueBefore, afterId, limit });
    return rows.map((row) => ({ ...row, since: new Date(row.since) }));
  }

  /** On `client`'s transaction: locks the search if it is still due; its `since` then. */
  async lockDue(client: TQueryable, id: string, dueBefore: Date): Promise<Date | undefined> {
    const { rows } = await LOCK_DUE.execute(client, { id, dueBefore });
    const since = rows[0]?.since;
    return since === undefined ? undefined : new Date(since);
  }

  async markAlerted(client: TQueryable, id: string): Promise<void> {
    await MARK_ALERTED.execute(client, { id });
  }

  /**
   * The animals that became available after `since`, newest first, up to `limit`: each id with
   * the last time it did.
   */
  async newlyAvailable(since: Date, limit: number): Promise<{ petId: number; at: Date }[]> {
    const { rows } = await NEWLY_AVAILABLE.execute(this.pool, { since, limit });
    return rows
      .map((row) => ({ petId: Number(row.petId), at: new Date(row.at) }))
      .filter((row) => Number.isSafeInteger(row.petId));
  }
}
