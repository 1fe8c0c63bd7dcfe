import { Inject, Injectable } from '@nestjs/common';
import {
  MAX_ACTIVE_KEYS_PER_ORGANIZATION,
  MAX_KEY_LIFETIME_DAYS,
  MAX_LIVE_KEYS_PER_ORGANIZATION,
  REFERENCE_KEY_MINUTES,
  type TKeyMode,
  type TKeyUsage,
  type TOrganization,
  type TOrgKey as TOrgKeyView,
} from '@pets/contract/site';
import { AccountsRepository } from '@pets/store/accounts.repository';
import { ApiKeyInputError, ApiKeysRepository } from '@pets/store/api-keys.repository';
import { recordAudit } from '@pets/store/audit.repository';
import {
  OrgKeysRepository,
  type TOrganizationPlan,
  type TOrgKey,
} from '@pets/store/org-keys.repository';
import { withTransaction } from '@pets/store/transaction';
import {
  type TUsagePoint,
  USAGE_STATUS_CLASSES,
  UsageRepository,
} from '@pets/store/usage.repository';
import type { Pool, PoolClient } from 'pg';
import { assertConfirmedAddress } from '../accounts/confirmed-address';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { TCaller } from '../api-keys/caller';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { AppError, invalidRequest } from '../core/app-error';
import { limitsOf, PlansService } from '../plans/plans.service';
import {
  RATE_LIMIT_SETTINGS,
  RATE_LIMIT_STORE,
  type TRateLimitSettings,
  type TRateLimitStore,
  type TWindowState,
} from '../rate-limit/rate-limit.types';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The developer behind a session credential, and their organisation. */
type TDeveloper = {
  accountId: string;
  name: string;
  apiKeyId: string;
  organizationId: string;
  emailVerified: boolean;
};

const modeOf = (environment: string): TKeyMode => (environment === 'staging' ? 'test' : 'live');

/** A key as the portal shows it: never its hashes. */
export const toOrgKeyView = (key: TOrgKey, now = Date.now()): TOrgKeyView => ({
  id: key.id,
  name: key.name,
  start: key.start,
  mode: modeOf(key.environment),
  readOnly: key.readOnly,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  status:
    key.revokedAt !== null
      ? 'revoked'
      : key.expiresAt !== null && key.expiresAt.getTime() <= now
        ? 'expired'
        : 'active',
  previousSecretExpiresAt:
    key.revokedAt === null &&
    key.previousHashExpiresAt !== null &&
    key.previousHashExpiresAt.getTime() > now
      ? new Date(
          Math.min(
            key.previousHashExpiresAt.getTime(),
            key.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY,
          ),
        ).toISOString()
      : null,
});

const notFound = (keyId: string) =>
  new AppError('not_found', `Your organisation has no key ${keyId}.`);

/**
 * The developer portal's keys and usage (issue 27, §4.1–4.3): an organisation's keys, made,
 * listed, rolled and revoked by its developers, and their requests. Every read and write is
 * scoped to the caller's organisation; another organisation's key is answered 404, as if it did
 * not exist. Nothing here runs per /v1 request.
 */
@Injectable()
export class OrgKeysService {
  private readonly isProduction: boolean;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CONFIG) config: TConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limiter: TRateLimitStore,
    @Inject(RATE_LIMIT_SETTINGS) private readonly limiterSettings: TRateLimitSettings,
    private readonly keys: ApiKeysService,
    private readonly plans: PlansService,
  ) {
    this.isProduction = config.APP_ENV === 'production';
  }

  async getOrganization(caller: TCaller): Promise<TOrganization> {
    const developer = await this.developerOf(caller);
    const organization = await this.organizationOf(developer);
    return {
      id: organization.id,
      name: organization.name,
      plan: organization.plan,
      limits: limitsOf(organization),
      planRequest: await this.plans.latestOf(organization.id),
    };
  }

  async list(caller: TCaller): Promise<TOrgKeyView[]> {
    const developer = await this.developerOf(caller);
    const now = Date.now();
    const keys = await new OrgKeysRepository(this.pool).list(developer.organizationId);
    return keys.map((key) => toOrgKeyView(key, now));
  }

  async create(
    caller: TCaller,
    input: { name: string; mode: TKeyMode; readOnly: boolean; expiresAt?: string | undefined },
    visitorIp: string,
  ): Promise<{ key: string; apiKey: TOrgKeyView }> {
    const developer = await this.verifiedDeveloperOf(caller);
    if (input.mode === 'live' && !this.isProduction) {
      throw invalidRequest('mode', 'this is a staging API: it issues test keys only');
    }
    const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
    if (expiresAt !== null) {
      const now = Date.now();
      if (expiresAt.getTime() <= now) {
        throw invalidRequest('expiresAt', 'the expiry must be in the future');
      }
      if (expiresAt.getTime() > now + MAX_KEY_LIFETIME_DAYS * DAY_MS) {
        throw invalidRequest(
          'expiresAt',
          `the expiry must be at most ${MAX_KEY_LIFETIME_DAYS} days ahead`,
        );
      }
    }
    return withTransaction(this.pool, (client) =>
      this.insertKey(client, developer, { ...input, expiresAt, forReference: false }, visitorIp),
    );
  }

  /**
   * "Try it in the API reference": a test, read-only key for REFERENCE_KEY_MINUTES, named "API
   * reference". The reference keys made before that still work are revoked in the same
   * transaction, so pressing the button again and again leaves one such key, never a pile.
   */
  async createForReference(
    caller: TCaller,
    visitorIp: string,
  ): Promise<{ key: string; apiKey: TOrgKeyView }> {
    const developer = await this.verifiedDeveloperOf(caller);
    const { issued, replaced } = await withTransaction(this.pool, async (client) => {
      const repository = new OrgKeysRepository(client);
      // The organisation's row first, as insertKey takes it: two presses take turns.
      await repository.organization(developer.organizationId, true);
      const before = await repository.revokeForReference(developer.organizationId);
      for (const key of before) {
        await recordAudit(client, {
          ...this.actorOf(developer),
          action: 'api_key.revoked',
          targetType: 'api_key',
          targetId: key.id,
          details: { start: key.start, reason: 'replaced by a new API reference key' },
          visitorIp,
        });
      }
      const made = await this.insertKey(
        client,
        developer,
        {
          name: 'API reference',
          mode: 'test',
          readOnly: true,
          expiresAt: new Date(Date.now() + REFERENCE_KEY_MINUTES * 60_000),
          forReference: true,
        },
        visitorIp,
      );
      return { issued: made, replaced: before };
    });
    this.keys.evict(...replaced.flatMap((key) => [key.hash, key.previousHash]));
    return issued;
  }

  /**
   * A new key of the organisation, within its caps (the organisation's row locked while counting,
   * so two creations cannot both take the last place), audited in the same transaction.
   */
  private async insertKey(
    client: PoolClient,
    developer: TDeveloper,
    input: {
      name: string;
      mode: TKeyMode;
      readOnly: boolean;
      expiresAt: Date | null;
      forReference: boolean;
    },
    visitorIp: string,
  ): Promise<{ key: string; apiKey: TOrgKeyView }> {
    const repository = new OrgKeysRepository(client);
    const organization = await repository.organization(developer.organizationId, true);
    if (!organization) {
      throw new AppError('not_found', 'Your organisation no longer exists.');
    }
    if (
      input.mode === 'live' &&
      (await repository.countLive(organization.id)) >= MAX_LIVE_KEYS_PER_ORGANIZATION
    ) {
      throw new AppError(
        'forbidden',
        `Your organisation has ${MAX_LIVE_KEYS_PER_ORGANIZATION} live keys, the most it may have: revoke one you no longer use first.`,
      );
    }
    if ((await repository.countActive(organization.id)) >= MAX_ACTIVE_KEYS_PER_ORGANIZATION) {
      throw new AppError(
        'forbidden',
        `Your organisation has ${MAX_ACTIVE_KEYS_PER_ORGANIZATION} keys that still work, the most it may have: revoke the ones you no longer use first.`,
      );
    }
    const created = await repository.create({
      organizationId: organization.id,
      createdByAccountId: developer.accountId,
      name: input.name,
      plan: organization.plan,
      rateLimitPerMinute: organization.rateLimitPerMinute,
      rateLimitPerDay: organization.rateLimitPerDay,
      environment: input.mode === 'test' ? 'staging' : 'production',
      readOnly: input.readOnly,
      expiresAt: input.expiresAt,
      forReference: input.forReference,
    });
    await recordAudit(client, {
      ...this.actorOf(developer),
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: created.apiKey.id,
      details: {
        name: created.apiKey.name,
        start: created.apiKey.start,
        mode: input.mode,
        readOnly: input.readOnly,
        expiresAt: input.expiresAt?.toISOString() ?? null,
        ...(input.forReference ? { forReference: true } : {}),
      },
      visitorIp,
    });
    return { key: created.key, apiKey: toOrgKeyView(created.apiKey) };
  }

  async revoke(caller: TCaller, keyId: string, visitorIp: string): Promise<TOrgKeyView> {
    const developer = await this.developerOf(caller);
    const revoked = await withTransaction(this.pool, async (client) => {
      const repository = new OrgKeysRepository(client);
      const key = await repository.revoke(developer.organizationId, keyId);
      if (!key) {
        // Not the organisation's (404), or revoked already (nothing changes, nothing audited).
        const existing = await repository.find(developer.organizationId, keyId);
        if (!existing) {
          throw notFound(keyId);
        }
        return existing;
      }
      await recordAudit(client, {
        ...this.actorOf(developer),
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: key.id,
        details: { start: key.start },
        visitorIp,
      });
      return key;
    });
    // Refused at once here; other instances' key caches see it within their 5 s.
    this.keys.evict(revoked.hash, revoked.previousHash);
    return toOrgKeyView(revoked);
  }

  async roll(
    caller: TCaller,
    keyId: string,
    overlapHours: number,
    visitorIp: string,
  ): Promise<{ key: string; apiKey: TOrgKeyView }> {
    const developer = await this.developerOf(caller);
    const { rolled, evicted } = await withTransaction(this.pool, async (client) => {
      const before = await new OrgKeysRepository(client).find(developer.organizationId, keyId);
      if (!before) {
        throw notFound(keyId);
      }
      if (before.revokedAt !== null) {
        throw invalidRequest('keyId', 'this key is revoked: create a new one');
      }
      let result: Awaited<ReturnType<ApiKeysRepository['roll']>>;
      try {
        result = await new ApiKeysRepository(client).roll(before.id, overlapHours * 3600);
      } catch (error) {
        if (error instanceof ApiKeyInputError) {
          throw invalidRequest('keyId', 'this key has expired or was revoked: create a new one');
        }
        throw error;
      }
      const after = await new OrgKeysRepository(client).find(developer.organizationId, keyId);
      await recordAudit(client, {
        ...this.actorOf(developer),
        action: 'api_key.rolled',
        targetType: 'api_key',
        targetId: before.id,
        details: { oldStart: before.start, newStart: result.apiKey.start, overlapHours },
        visitorIp,
      });
      return {
        rolled: { key: result.key, apiKey: after as TOrgKey },
        // The old secret (now with an end) and the one before it (now gone).
        evicted: [result.previousHash, before.previousHash],
      };
    });
    this.keys.evict(...evicted);
    return { key: rolled.key, apiKey: toOrgKeyView(rolled.apiKey) };
  }

  async usage(caller: TCaller, keyId: string, days: number): Promise<TKeyUsage> {
    const developer = await this.developerOf(caller);
    const key = await new OrgKeysRepository(this.pool).find(developer.organizationId, keyId);
    if (!key) {
      throw notFound(keyId);
    }
    const now = Date.now();
    const thisHour = now - (now % HOUR_MS);
    const today = now - (now % DAY_MS);
    const firstHour = thisHour - (days * 24 - 1) * HOUR_MS;
    const firstDay = today - (days - 1) * DAY_MS;
    const usage = new UsageRepository(this.pool);
    const id = BigInt(key.id);
    const [hourly, daily] = await Promise.all([
      usage.hourly([id], new Date(firstHour)),
      usage.daily([id], new Date(firstDay)),
    ]);
    return {
      keyId: key.id,
      days,
      hourly: series(hourly, firstHour, thisHour, HOUR_MS),
      daily: series(daily, firstDay, today, DAY_MS),
    };
  }

  /**
   * Each working key's current minute and day windows, read from the rate limiter (one round trip
   * per key, in parallel, only when the dashboard asks); nothing is counted.
   */
  async usageNow(caller: TCaller) {
    const developer = await this.developerOf(caller);
    const repository = new OrgKeysRepository(this.pool);
    const [organization, keys] = await Promise.all([
      this.organizationOf(developer),
      repository.list(developer.organizationId),
    ]);
    const limits = limitsOf(organization);
    const minute = {
      name: 'minute',
      limit: limits.perMinute,
      ttlMs: this.limiterSettings.minuteMs,
    };
    const day = { name: 'day', limit: limits.perDay, ttlMs: this.limiterSettings.dayMs };
    const now = Date.now();
    const working = keys.filter((key) => toOrgKeyView(key, now).status === 'active');
    const windows = await Promise.all(
      working.map((key) =>
        Promise.all([
          this.limiter.peekWindow(`key:${key.id}`, minute),
          this.limiter.peekWindow(`key:${key.id}`, day),
        ]),
      ),
    );
    return {
      keys: working.map((key, index) => {
        const [minuteNow, dayNow] = windows[index] as [TWindowState, TWindowState];
        return {
          id: key.id,
          name: key.name,
          start: key.start,
          minute: windowView(minuteNow),
          day: windowView(dayNow),
        };
      }),
    };
  }

  /**
   * The organisation's key `keyId` as the caller of the webhook operations (the portal's Webhooks
   * page; `WebhooksService` reads only the key's id): the endpoints are the key's own, as with
   * `/v1/webhook-endpoints` called with it. Another organisation's key is a 404; adding an
   * endpoint needs a confirmed address and an active key that may write.
   */
  async keyAsCaller(
    caller: TCaller,
    keyId: string,
    purpose: 'read' | 'write',
  ): Promise<Pick<TCaller, 'apiKeyId'>> {
    const developer = await this.developerOf(caller);
    const key = await new OrgKeysRepository(this.pool).find(developer.organizationId, keyId);
    if (!key) {
      throw notFound(keyId);
    }
    if (purpose === 'write') {
      assertConfirmedAddress(developer, 'adding webhook endpoints');
      if (toOrgKeyView(key).status !== 'active') {
        throw invalidRequest('keyId', 'this key has expired or was revoked: choose an active key');
      }
      if (key.readOnly) {
        throw new AppError(
          'forbidden',
          'This key is read-only: it cannot manage webhook endpoints. Choose a key that may write.',
        );
      }
    }
    return { apiKeyId: BigInt(key.id) };
  }

  // --- Helpers --------------------------------------------------------------------------------

  /** The developer of a session credential (AdmissionGuard admitted developers only). */
  private async developerOf(caller: TCaller): Promise<TDeveloper> {
    if (caller.kind !== 'session' || caller.owner?.type !== 'person') {
      throw new AppError('not_found', 'No such operation.');
    }
    const account = await new AccountsRepository(this.pool).findById(caller.owner.id);
    if (!account || account.organizationId === null) {
      throw new AppError('forbidden', 'This account has no organisation.');
    }
    return {
      accountId: account.id,
      name: account.name,
      apiKeyId: String(caller.apiKeyId),
      organizationId: account.organizationId,
      emailVerified: account.emailVerifiedAt !== null,
    };
  }

  /** Keys are made only once the account's email is confirmed: a throwaway address mints none. */
  private async verifiedDeveloperOf(caller: TCaller): Promise<TDeveloper> {
    const developer = await this.developerOf(caller);
    assertConfirmedAddress(developer, 'creating keys');
    return developer;
  }

  private async organizationOf(developer: TDeveloper): Promise<TOrganizationPlan> {
    const organization = await new OrgKeysRepository(this.pool).organization(
      developer.organizationId,
    );
    if (!organization) {
      throw new AppError('not_found', 'Your organisation no longer exists.');
    }
    return organization;
  }

  private actorOf(developer: TDeveloper) {
    return {
      actorAccountId: developer.accountId,
      actorApiKeyId: developer.apiKeyId,
      actorName: developer.name,
    };
  }
}

const windowView = (state: TWindowState) => ({
  used: state.used,
  limit: state.limit,
  resetInSeconds: Math.ceil(Math.max(0, state.resetInMs) / 1000),
});

/** Every period from `first` to `last` (zeros where nothing was counted), oldest first. */
const series = (points: TUsagePoint[], first: number, last: number, stepMs: number) => {
  const byPeriod = new Map<number, Record<(typeof USAGE_STATUS_CLASSES)[number], number>>();
  for (let start = first; start <= last; start += stepMs) {
    byPeriod.set(start, { '2xx': 0, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0 });
  }
  for (const point of points) {
    const counts = byPeriod.get(point.period.getTime());
    if (counts) {
      counts[point.statusClass] += point.count;
    }
  }
  return [...byPeriod].map(([start, counts]) => ({
    start: new Date(start).toISOString(),
    counts,
  }));
};
