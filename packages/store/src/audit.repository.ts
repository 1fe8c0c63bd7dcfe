import type { TAuditAction, TAuditTargetKind } from '@pets/contract/site';
import { prepare, prepareShapes, sql, type TQueryable } from '@pets/db';

/**
 * The audit_log table: who did what. `recordAudit` runs on the client of the change's own
 * transaction, so an entry exists exactly when its change committed, as events and the mail outbox
 * do. Read by the back office's audit page (admins).
 */
export type TAuditEntry = {
  actorAccountId: string | null;
  actorApiKeyId: string | null;
  /** The actor's name as it was then, or what acted ("pnpm accounts"). */
  actorName: string;
  /** One of the contract's AUDIT_ACTIONS: the back office has words for each. */
  action: TAuditAction;
  targetType: TAuditTargetKind;
  targetId: string;
  details?: Record<string, unknown>;
  visitorIp?: string | null;
};

/**
 * Who acted, as a repository that audits its own writes takes it: a staff caller (a person's
 * session credential or a script's staff key). Partners' traffic is not audited (the access log
 * has it), so their writes pass none.
 */
export type TAuditActor = { apiKeyId: string; accountId: string | null; name: string };

/** The entry of `actor` doing `action` to a target. */
export const auditEntryOf = (
  actor: TAuditActor,
  entry: Pick<TAuditEntry, 'action' | 'targetType' | 'targetId' | 'details'>,
): TAuditEntry => ({
  actorAccountId: actor.accountId,
  actorApiKeyId: actor.apiKeyId,
  actorName: actor.name,
  ...entry,
});

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
  targetType?: string | undefined;
  targetId?: string | undefined;
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
  /** Always an object: recordAudit writes `{}` for an entry without details. */
  details: Record<string, unknown>;
};

type TListParams = {
  actorAccountId: string;
  action: string;
  targetType: string;
  targetId: string;
  from: Date | null;
  to: Date | null;
  before: string;
  limit: number;
};

/** One prepared statement per filter shape, as the pets list does. */
const LIST_STATEMENTS = prepareShapes(
  ['actorAccountId', 'action', 'targetType', 'targetId', 'from', 'to', 'before'],
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
    if (has('targetType')) {
      query = query.where('target_type', '=', p.targetType);
    }
    if (has('targetId')) {
      query = query.where('target_id', '=', p.targetId);
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
    // The table's bigint id, not the selected text one: "9" sorts after "10" as text.
    return query.orderBy('audit_log.id', 'desc').limit(sql<number>`${p.limit}::int`);
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
    targetType: filter.targetType ?? '',
    targetId: filter.targetId ?? '',
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
