import { prepare, type TQueryable } from '@pets/db';

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
