import { prepare, prepareShapes, sql, type TQueryable } from '@pets/db';

/**
 * The audit_log table: who did what (issue 27, §3.4 of the plan). `record` runs on the client of
 * the change's own transaction, so an entry exists exactly when its change committed, as events and
 * the mail outbox do. The page that reads it is a later slice.
 */
export type TAuditEntry = {
  actorAccountId: string | null;
  actorApiKeyId: string | null;
  /** The actor's name as it was then, or what acted ("pnpm accounts"). */
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  details?: Record<string, unknown>;
  visitorIp?: string | null;
};

const INSERT = prepare(
  (
    db,
    p: Omit<TAuditEntry, 'details' | 'visitorIp'> & { details: string; visitorIp: string | null },
  ) =>
    db.insertInto('audit_log').values({
      actor_account_id: p.actorAccountId,
      actor_api_key_id: p.actorApiKeyId,
      actor_name: p.actorName,
      action: p.action,
      target_type: p.targetType,
      target_id: p.targetId,
      details: p.details,
      visitor_ip: p.visitorIp,
    }),
);

/** Writes one entry on `client` (the change's transaction). */
export const recordAudit = async (client: TQueryable, entry: TAuditEntry): Promise<void> => {
  await INSERT.execute(client, {
    ...entry,
    actorName: entry.actorName.slice(0, 100),
    details: JSON.stringify(entry.details ?? {}),
    visitorIp: entry.visitorIp ?? null,
  });
};

/** What the audit page asks for: newest first, `before` an entry id (the next page's cursor). */
export type TAuditFilter = {
  actorAccountId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  before?: string | undefined;
  limit: number;
};

export type TAuditRow = {
  id: string;
  at: Date;
  actorAccountId: string | null;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  details: unknown;
};

type TListParams = {
  actorAccountId: string;
  action: string;
  from: Date | null;
  to: Date | null;
  before: string;
  limit: number;
};

/** One prepared statement per filter shape, as the pets list does. */
const LIST_STATEMENTS = prepareShapes(
  ['actorAccountId', 'action', 'from', 'to', 'before'],
  (db, p: TListParams, has) => {
    let query = db
      .selectFrom('audit_log')
      .select([
        sql<string>`id::text`.as('id'),
        'at',
        sql<string | null>`actor_account_id::text`.as('actorAccountId'),
        'actor_name as actorName',
        'action',
        'target_type as targetType',
        'target_id as targetId',
        'details',
      ]);
    if (has('actorAccountId')) {
      query = query.where('actor_account_id', '=', sql<string>`${p.actorAccountId}::bigint`);
    }
    if (has('action')) {
      query = query.where('action', '=', p.action);
    }
    if (has('from')) {
      query = query.where('at', '>=', sql<Date>`${p.from}::timestamptz`);
    }
    if (has('to')) {
      query = query.where('at', '<', sql<Date>`${p.to}::timestamptz`);
    }
    if (has('before')) {
      query = query.where('id', '<', sql<string>`${p.before}::bigint`);
    }
    return query.orderBy('id', 'desc').limit(sql<number>`${p.limit}::int`);
  },
);

/** A page of the audit log, newest first; `nextBefore` when older entries remain. */
export const listAudit = async (
  client: TQueryable,
  filter: TAuditFilter,
): Promise<{ entries: TAuditRow[]; nextBefore: string | null }> => {
  const params: TListParams = {
    actorAccountId: filter.actorAccountId ?? '',
    action: filter.action ?? '',
    from: filter.from ?? null,
    to: filter.to ?? null,
    before: filter.before ?? '',
    limit: filter.limit + 1,
  };
  const { rows } = await LIST_STATEMENTS.execute(client, params);
  const entries = (rows as TAuditRow[]).slice(0, filter.limit);
  return {
    entries,
    nextBefore: rows.length > filter.limit ? (entries.at(-1)?.id ?? null) : null,
  };
};
