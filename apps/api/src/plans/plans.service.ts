import { Inject, Injectable } from '@nestjs/common';
import { customLimitsProblem, PLAN_LIMITS, type TPlan } from '@pets/contract/rules';
import {
  MAX_PLAN_REQUESTS_PER_DAY,
  type TDecidePlanRequest,
  type TOrganizationPlan,
  type TPlanRequest,
  type TPlanRequestStatus,
} from '@pets/contract/site';
import { AccountsRepository } from '@pets/store/accounts.repository';
import { recordAudit } from '@pets/store/audit.repository';
import { MailRepository } from '@pets/store/mail.repository';
import { OrgKeysRepository } from '@pets/store/org-keys.repository';
import {
  isPendingRequestExists,
  PlansRepository,
  type TPlanRequestRow,
} from '@pets/store/plans.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool, PoolClient } from 'pg';
import { assertConfirmedAddress } from '../accounts/confirmed-address';
import { ANONYMOUS_LIMITS } from '../api-keys/api-key-plans';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { TCaller } from '../api-keys/caller';
import { PG_POOL } from '../app.tokens';
import { AppError, invalidRequest } from '../core/app-error';
import type { TPlanDecidedMailData, TPlanRequestedMailData } from '../mail/mail-templates';

/**
 * At most this many new-request emails per staff member an hour: a developer who asks, withdraws
 * and asks again in a loop fills the queue page, not everyone's inbox.
 */
export const PLAN_REQUEST_MAILS_PER_HOUR = 20;

/** The limits every key of an organisation gets: its plan's, or its own for Enterprise. */
export const limitsOf = (organization: {
  plan: TPlan;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
}) =>
  PLAN_LIMITS[organization.plan] ?? {
    perMinute: organization.rateLimitPerMinute ?? ANONYMOUS_LIMITS.perMinute,
    perDay: organization.rateLimitPerDay ?? ANONYMOUS_LIMITS.perDay,
  };

/** A request as the portal and the back office show it. */
export const toPlanRequestView = (row: TPlanRequestRow): TPlanRequest => ({
  id: row.id,
  organization: {
    id: row.organizationId,
    name: row.organizationName,
    plan: row.organizationPlan,
    limits: limitsOf({
      plan: row.organizationPlan,
      rateLimitPerMinute: row.organizationRateLimitPerMinute,
      rateLimitPerDay: row.organizationRateLimitPerDay,
    }),
  },
  currentPlan: row.currentPlan,
  requestedPlan: row.requestedPlan,
  message: row.message,
  status: row.status,
  requestedBy:
    row.requestedById === null || row.requestedByName === null || row.requestedByEmail === null
      ? null
      : {
          id: row.requestedById,
          name: row.requestedByName,
          email: row.requestedByEmail,
          emailConfirmed: row.requestedByEmailConfirmed,
        },
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decidedByName: row.decidedByName,
  decisionNote: row.decisionNote,
  limits:
    row.rateLimitPerMinute === null || row.rateLimitPerDay === null
      ? null
      : { perMinute: row.rateLimitPerMinute, perDay: row.rateLimitPerDay },
});

const PENDING_EXISTS = () =>
  new AppError(
    'plan_request_conflict',
    'Your organisation has a plan request waiting already: withdraw it first, or wait for our answer.',
  );

const notPending = (id: string) =>
  new AppError(
    'plan_request_conflict',
    `Plan request ${id} is not pending any more: it was decided or withdrawn.`,
  );

const noRequest = (id: string) => new AppError('not_found', `No plan request ${id}.`);

/** The person behind a session credential (AdmissionGuard admitted accounts only). */
const personOf = (caller: TCaller): { accountId: string } => {
  if (caller.kind !== 'session' || caller.owner?.type !== 'person') {
    throw new AppError('not_found', 'No such operation.');
  }
  return { accountId: caller.owner.id };
};

const actorOf = (caller: TCaller, visitorIp: string) => ({
  actorAccountId: caller.owner?.type === 'person' ? caller.owner.id : null,
  actorApiKeyId: String(caller.apiKeyId),
  actorName: caller.name,
  visitorIp,
});

/**
 * Plans (issue 27, §4.5): developers ask for another plan, staff and admins approve or decline in
 * the back office. An approval changes the organisation's plan (and, for Enterprise, its limits),
 * decides the request, writes the audit row and queues the developer's email, all in one
 * transaction. Keys read their organisation's plan at lookup: this process drops them from its key
 * cache at once, other replicas reload them within the cache's 5 s.
 */
@Injectable()
export class PlansService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly mail: MailRepository,
    private readonly keys: ApiKeysService,
  ) {}

  // --- Developers (the org router) --------------------------------------------------------------

  /** The organisation's pending request, or else its latest decided one. */
  async latestOf(organizationId: string): Promise<TPlanRequest | null> {
    const row = await new PlansRepository(this.pool).latestOf(organizationId);
    return row ? toPlanRequestView(row) : null;
  }

  async request(
    caller: TCaller,
    input: { plan: TPlan; message?: string | undefined },
    visitorIp: string,
  ): Promise<TPlanRequest> {
    const developer = await this.developerOf(caller);
    // Every admin and staff member is emailed in the requester's name: only a confirmed address.
    assertConfirmedAddress(developer, 'asking for another plan');
    try {
      return await withTransaction(this.pool, async (client) => {
        const organization = await new OrgKeysRepository(client).organization(
          developer.organizationId,
          true,
        );
        if (!organization) {
          throw new AppError('not_found', 'Your organisation no longer exists.');
        }
        if (organization.plan === input.plan) {
          throw invalidRequest('plan', `your organisation is on the ${input.plan} plan already`);
        }
        const plans = new PlansRepository(client);
        // The organisation's row is locked above, so two tabs cannot both pass this count.
        if ((await plans.countInLastDay(organization.id)) >= MAX_PLAN_REQUESTS_PER_DAY) {
          throw new AppError(
            'forbidden',
            `Your organisation has asked for a plan ${MAX_PLAN_REQUESTS_PER_DAY} times in the last 24 hours, the most it may: ask again tomorrow, or write to us.`,
          );
        }
        const id = await plans.create({
          organizationId: organization.id,
          currentPlan: organization.plan,
          requestedPlan: input.plan,
          message: input.message ? input.message : null,
          requestedById: developer.accountId,
        });
        await recordAudit(client, {
          ...actorOf(caller, visitorIp),
          action: 'plan.requested',
          targetType: 'plan_request',
          targetId: id,
          details: {
            organizationId: organization.id,
            organizationName: organization.name,
            from: organization.plan,
            to: input.plan,
          },
        });
        const created = (await plans.find(id)) as TPlanRequestRow;
        await this.queueRequestMail(client, created);
        return toPlanRequestView(created);
      });
    } catch (error) {
      if (isPendingRequestExists(error)) {
        throw PENDING_EXISTS();
      }
      throw error;
    }
  }

  async withdraw(caller: TCaller, id: string, visitorIp: string): Promise<TPlanRequest> {
    const developer = await this.developerOf(caller);
    return withTransaction(this.pool, async (client) => {
      const plans = new PlansRepository(client);
      const existing = await plans.find(id);
      if (!existing || existing.organizationId !== developer.organizationId) {
        throw new AppError('not_found', `Your organisation has no plan request ${id}.`);
      }
      if (!(await plans.withdraw(developer.organizationId, id))) {
        throw notPending(id);
      }
      await recordAudit(client, {
        ...actorOf(caller, visitorIp),
        action: 'plan.withdrawn',
        targetType: 'plan_request',
        targetId: id,
        details: {
          organizationId: developer.organizationId,
          organizationName: existing.organizationName,
          from: existing.currentPlan,
          to: existing.requestedPlan,
        },
      });
      return toPlanRequestView((await plans.find(id)) as TPlanRequestRow);
    });
  }

  // --- Staff and admins (the plans router) --------------------------------------------------------

  async list(status: TPlanRequestStatus, limit: number): Promise<TPlanRequest[]> {
    return (await new PlansRepository(this.pool).list(status, limit)).map(toPlanRequestView);
  }

  async decide(
    caller: TCaller,
    id: string,
    input: TDecidePlanRequest,
    visitorIp: string,
  ): Promise<TPlanRequest> {
    personOf(caller);
    const approve = input.decision === 'approve';
    const decided = await withTransaction(this.pool, async (client) => {
      const plans = new PlansRepository(client);
      const request = await plans.find(id);
      if (!request) {
        throw noRequest(id);
      }
      if (request.status !== 'pending') {
        throw notPending(id);
      }
      const limits = approve ? { rpm: input.rpm, rpd: input.rpd } : {};
      if (!approve && (input.rpm !== undefined || input.rpd !== undefined)) {
        throw invalidRequest('rpm', 'limits (rpm, rpd) are set only when approving');
      }
      const problem = approve
        ? customLimitsProblem(request.requestedPlan, limits, 'organisations')
        : null;
      if (problem !== null) {
        throw invalidRequest(problem.startsWith('rpd') ? 'rpd' : 'rpm', problem);
      }
      const rateLimitPerMinute = approve ? (input.rpm ?? null) : null;
      const rateLimitPerDay = approve ? (input.rpd ?? null) : null;
      const note = input.note ? input.note : null;
      const done = await plans.decide({
        id,
        status: approve ? 'approved' : 'declined',
        decidedById: caller.owner?.type === 'person' ? caller.owner.id : null,
        decidedByName: caller.name,
        decisionNote: note,
        rateLimitPerMinute,
        rateLimitPerDay,
      });
      if (!done) {
        // Decided or withdrawn between the read and the update (another tab, the developer).
        throw notPending(id);
      }
      if (approve) {
        await plans.setPlan({
          organizationId: request.organizationId,
          plan: request.requestedPlan,
          rateLimitPerMinute,
          rateLimitPerDay,
        });
      }
      await recordAudit(client, {
        ...actorOf(caller, visitorIp),
        action: approve ? 'plan.approved' : 'plan.declined',
        targetType: 'plan_request',
        targetId: id,
        details: {
          organizationId: request.organizationId,
          organizationName: request.organizationName,
          from: request.currentPlan,
          to: request.requestedPlan,
          ...(rateLimitPerMinute === null ? {} : { rpm: rateLimitPerMinute, rpd: rateLimitPerDay }),
        },
      });
      const after = (await plans.find(id)) as TPlanRequestRow;
      await this.queueDecisionMail(client, after);
      return after;
    });
    if (approve) {
      await this.evictKeysOf(decided.organizationId);
    }
    return toPlanRequestView(decided);
  }

  async setLimits(
    caller: TCaller,
    organizationId: string,
    limits: { rpm: number; rpd: number },
    visitorIp: string,
  ): Promise<TOrganizationPlan> {
    personOf(caller);
    const updated = await withTransaction(this.pool, async (client) => {
      const organization = await new OrgKeysRepository(client).organization(organizationId, true);
      if (!organization) {
        throw new AppError('not_found', `No organisation ${organizationId}.`);
      }
      const problem = customLimitsProblem(organization.plan, limits, 'organisations');
      if (problem !== null) {
        throw invalidRequest(problem.startsWith('rpd') ? 'rpd' : 'rpm', problem);
      }
      const changed = await new PlansRepository(client).setLimits({
        organizationId,
        rateLimitPerMinute: limits.rpm,
        rateLimitPerDay: limits.rpd,
      });
      if (!changed) {
        throw new AppError('not_found', `No organisation ${organizationId}.`);
      }
      await recordAudit(client, {
        ...actorOf(caller, visitorIp),
        action: 'organization.limits_set',
        targetType: 'organization',
        targetId: organizationId,
        details: {
          organizationName: organization.name,
          rpm: limits.rpm,
          rpd: limits.rpd,
          before: { rpm: organization.rateLimitPerMinute, rpd: organization.rateLimitPerDay },
        },
      });
      return changed;
    });
    await this.evictKeysOf(organizationId);
    return {
      id: updated.id,
      name: updated.name,
      plan: updated.plan,
      limits: limitsOf(updated),
    };
  }

  // --- Helpers ------------------------------------------------------------------------------

  /** The developer's account and organisation (the org router admits developers only). */
  private async developerOf(caller: TCaller) {
    const { accountId } = personOf(caller);
    const account = await new AccountsRepository(this.pool).findById(accountId);
    if (!account || account.organizationId === null) {
      throw new AppError('forbidden', 'This account has no organisation.');
    }
    return {
      accountId: account.id,
      organizationId: account.organizationId,
      emailVerifiedAt: account.emailVerifiedAt,
    };
  }

  /** The requester hears the answer (nobody when their account is gone). */
  private async queueDecisionMail(client: PoolClient, request: TPlanRequestRow): Promise<void> {
    if (request.requestedByEmail === null || request.requestedByName === null) {
      return;
    }
    const view = toPlanRequestView(request);
    const data: TPlanDecidedMailData = {
      name: request.requestedByName,
      organizationName: request.organizationName,
      decision: request.status === 'approved' ? 'approved' : 'declined',
      currentPlan: request.currentPlan,
      requestedPlan: request.requestedPlan,
      note: request.decisionNote,
      limits: request.status === 'approved' ? view.organization.limits : null,
    };
    await this.mail.enqueue(client, {
      template: 'plan-request-decided',
      to: request.requestedByEmail,
      data,
    });
  }

  /**
   * Every active admin and staff member hears of a new request, in the request's transaction (a
   * request that rolls back emails nobody), within PLAN_REQUEST_MAILS_PER_HOUR each.
   */
  private async queueRequestMail(client: PoolClient, request: TPlanRequestRow): Promise<void> {
    // Only admins decide plan requests: staff are not written to about one.
    const admins = await new AccountsRepository(client).activeAdmins();
    for (const person of admins) {
      const data: TPlanRequestedMailData = {
        name: person.name,
        organizationName: request.organizationName,
        requesterName: request.requestedByName ?? 'A developer',
        requesterEmail: request.requestedByEmail ?? 'no address',
        currentPlan: request.currentPlan,
        requestedPlan: request.requestedPlan,
        message: request.message,
      };
      await this.mail.enqueueWithinHourlyLimit(
        client,
        { template: 'plan-request-received', to: person.email, data },
        PLAN_REQUEST_MAILS_PER_HOUR,
      );
    }
  }

  /** This process reads the organisation's keys again at their next request. */
  private async evictKeysOf(organizationId: string): Promise<void> {
    const keys = await new OrgKeysRepository(this.pool).list(organizationId);
    this.keys.evict(...keys.flatMap((key) => [key.hash, key.previousHash]));
  }
}
