import { type ApiKeyPlan, prepare, sql, type TQueryable } from '@pets/db';

/**
 * Plan change requests (issue 27, §4.5): a developer asks for another plan for their
 * organisation, staff approve or decline it. At most one request of an organisation is pending (a
 * partial unique index: a second one fails with `isPendingRequestExists`). Approving changes
 * `organizations.plan` and its limits in the same transaction; keys read them through the key
 * lookup's join, so every replica applies them when its key cache reloads (within 5 s).
 */

export type TPlanRequestStatus = 'pending' | 'approved' | 'declined' | 'withdrawn';

/** A request with its organisation as it is now, and the requester. */
export type TPlanRequestRow = {
  id: string;
  organizationId: string;
  organizationName: string;
  organizationPlan: ApiKeyPlan;
  organizationRateLimitPerMinute: number | null;
  organizationRateLimitPerDay: number | null;
  currentPlan: ApiKeyPlan;
  requestedPlan: ApiKeyPlan;
  message: string | null;
  status: TPlanRequestStatus;
  requestedById: string | null;
  requestedByName: string | null;
  requestedByEmail: string | null;
  /** Whether the requester's address is confirmed (false once the account is gone). */
  requestedByEmailConfirmed: boolean;
  createdAt: Date;
  decidedAt: Date | null;
  decidedByName: string | null;
  decisionNote: string | null;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
};

const COLUMNS = [
  'r.id as id',
  'r.organization_id as organizationId',
  'o.name as organizationName',
  'o.plan as organizationPlan',
  'o.rate_limit_per_minute as organizationRateLimitPerMinute',
  'o.rate_limit_per_day as organizationRateLimitPerDay',
  'r.current_plan as currentPlan',
  'r.requested_plan as requestedPlan',
  'r.message as message',
  'r.status as status',
  'r.requested_by_id as requestedById',
  'a.name as requestedByName',
  'a.email as requestedByEmail',
  sql<boolean>`a.email_verified_at is not null`.as('requestedByEmailConfirmed'),
  'r.created_at as createdAt',
  'r.decided_at as decidedAt',
  'r.decided_by_name as decidedByName',
  'r.decision_note as decisionNote',
  'r.rate_limit_per_minute as rateLimitPerMinute',
  'r.rate_limit_per_day as rateLimitPerDay',
] as const;

const joined = (db: Parameters<Parameters<typeof prepare>[0]>[0]) =>
  db
    .selectFrom('plan_change_requests as r')
    .innerJoin('organizations as o', 'o.id', 'r.organization_id')
    .leftJoin('accounts as a', 'a.id', 'r.requested_by_id')
    .select(COLUMNS);

const BY_ID = prepare((db, p: { id: string }) => joined(db).where('r.id', '=', p.id));

/** The organisation's newest request: the pending one if any (none can be made after it). */
const LATEST_OF_ORGANIZATION = prepare((db, p: { organizationId: string }) =>
  joined(db).where('r.organization_id', '=', p.organizationId).orderBy('r.id', 'desc').limit(1),
);

/** The queue: pending requests, the oldest first (the first asked is the first answered). */
const PENDING = prepare((db, p: { limit: number }) =>
  joined(db).where('r.status', '=', 'pending').orderBy('r.id', 'asc').limit(p.limit),
);

/** Decided requests of one status, the newest first. */
const BY_STATUS = prepare((db, p: { status: string; limit: number }) =>
  joined(db).where('r.status', '=', p.status).orderBy('r.id', 'desc').limit(p.limit),
);

const INSERT = prepare(
  (
    db,
    p: {
      organizationId: string;
      currentPlan: ApiKeyPlan;
      requestedPlan: ApiKeyPlan;
      message: string | null;
      requestedById: string;
    },
  ) =>
    db
      .insertInto('plan_change_requests')
      .values({
        organization_id: p.organizationId,
        current_plan: p.currentPlan,
        requested_plan: p.requestedPlan,
        message: p.message,
        requested_by_id: p.requestedById,
      })
      .returning('id'),
);

/** How many requests the organisation made in the last day, withdrawn and decided ones too. */
const ASKED_IN_A_DAY = prepare((db, p: { organizationId: string }) =>
  db
    .selectFrom('plan_change_requests')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('organization_id', '=', p.organizationId)
    .where('created_at', '>', sql<Date>`now() - interval '1 day'`),
);

const WITHDRAW = prepare((db, p: { id: string; organizationId: string }) =>
  db
    .updateTable('plan_change_requests')
    .set({ status: 'withdrawn', decided_at: sql<Date>`now()` })
    .where('id', '=', p.id)
    .where('organization_id', '=', p.organizationId)
    .where('status', '=', 'pending')
    .returning('id'),
);

type TDecision = {
  id: string;
  status: 'approved' | 'declined';
  decidedById: string | null;
  decidedByName: string;
  decisionNote: string | null;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
};

/** Decides a pending request; no row when it is not pending (any more). */
const DECIDE = prepare((db, p: TDecision) =>
  db
    .updateTable('plan_change_requests')
    .set({
      status: p.status,
      decided_at: sql<Date>`now()`,
      decided_by_id: p.decidedById,
      decided_by_name: p.decidedByName,
      decision_note: p.decisionNote,
      rate_limit_per_minute: p.rateLimitPerMinute,
      rate_limit_per_day: p.rateLimitPerDay,
    })
    .where('id', '=', p.id)
    .where('status', '=', 'pending')
    .returning(['id', 'organization_id as organizationId', 'requested_plan as requestedPlan']),
);

const SET_PLAN = prepare(
  (
    db,
    p: {
      organizationId: string;
      plan: ApiKeyPlan;
      rateLimitPerMinute: number | null;
      rateLimitPerDay: number | null;
    },
  ) =>
    db
      .updateTable('organizations')
      .set({
        plan: p.plan,
        rate_limit_per_minute: p.rateLimitPerMinute,
        rate_limit_per_day: p.rateLimitPerDay,
      })
      .where('id', '=', p.organizationId)
      .returning('id'),
);

/** Enterprise organisations only: the others' limits are their plan's. */
const SET_LIMITS = prepare(
  (db, p: { organizationId: string; rateLimitPerMinute: number; rateLimitPerDay: number }) =>
    db
      .updateTable('organizations')
      .set({ rate_limit_per_minute: p.rateLimitPerMinute, rate_limit_per_day: p.rateLimitPerDay })
      .where('id', '=', p.organizationId)
      .where('plan', '=', 'enterprise')
      .returning([
        'id',
        'name',
        'plan',
        'rate_limit_per_minute as rateLimitPerMinute',
        'rate_limit_per_day as rateLimitPerDay',
      ]),
);

const toRow = (row: unknown): TPlanRequestRow => {
  const request = row as TPlanRequestRow;
  return {
    ...request,
    id: String(request.id),
    organizationId: String(request.organizationId),
    requestedById: request.requestedById === null ? null : String(request.requestedById),
  };
};

/** The database refused a second pending request of one organisation. */
export const isPendingRequestExists = (error: unknown): boolean =>
  (error as { code?: string; constraint?: string })?.code === '23505' &&
  (error as { constraint?: string }).constraint === 'plan_change_requests_one_pending_idx';

export class PlansRepository {
  constructor(private readonly db: TQueryable) {}

  async find(id: string): Promise<TPlanRequestRow | null> {
    const row = (await BY_ID.execute(this.db, { id })).rows[0];
    return row ? toRow(row) : null;
  }

  async latestOf(organizationId: string): Promise<TPlanRequestRow | null> {
    const row = (await LATEST_OF_ORGANIZATION.execute(this.db, { organizationId })).rows[0];
    return row ? toRow(row) : null;
  }

  async list(status: TPlanRequestStatus, limit: number): Promise<TPlanRequestRow[]> {
    const result =
      status === 'pending'
        ? await PENDING.execute(this.db, { limit })
        : await BY_STATUS.execute(this.db, { status, limit });
    return result.rows.map(toRow);
  }

  /** A pending request; throws the unique violation (`isPendingRequestExists`) for a second. */
  async create(input: {
    organizationId: string;
    currentPlan: ApiKeyPlan;
    requestedPlan: ApiKeyPlan;
    message: string | null;
    requestedById: string;
  }): Promise<string> {
    const row = (await INSERT.execute(this.db, input)).rows[0];
    return String(row?.id);
  }

  /** The organisation's requests of the last 24 hours, whatever became of them. */
  async countInLastDay(organizationId: string): Promise<number> {
    return (await ASKED_IN_A_DAY.execute(this.db, { organizationId })).rows[0]?.count ?? 0;
  }

  /** True when the organisation's pending request `id` is now withdrawn. */
  async withdraw(organizationId: string, id: string): Promise<boolean> {
    return (await WITHDRAW.execute(this.db, { id, organizationId })).rows.length > 0;
  }

  async decide(
    decision: TDecision,
  ): Promise<{ id: string; organizationId: string; requestedPlan: ApiKeyPlan } | null> {
    const row = (await DECIDE.execute(this.db, decision)).rows[0];
    return row ? { ...row, id: String(row.id), organizationId: String(row.organizationId) } : null;
  }

  async setPlan(input: {
    organizationId: string;
    plan: ApiKeyPlan;
    rateLimitPerMinute: number | null;
    rateLimitPerDay: number | null;
  }): Promise<void> {
    await SET_PLAN.execute(this.db, input);
  }

  /** The organisation after the change; null when it is not an Enterprise organisation. */
  async setLimits(input: {
    organizationId: string;
    rateLimitPerMinute: number;
    rateLimitPerDay: number;
  }): Promise<{
    id: string;
    name: string;
    plan: ApiKeyPlan;
    rateLimitPerMinute: number | null;
    rateLimitPerDay: number | null;
  } | null> {
    const row = (await SET_LIMITS.execute(this.db, input)).rows[0];
    return row ? { ...row, id: String(row.id) } : null;
  }
}
