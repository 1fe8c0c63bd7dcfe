import { customLimitsProblem } from '@pets/contract/rules';
import { ZCustomLimit } from '@pets/contract/schemas';
import {
  ApiKeyEnvironment,
  ApiKeyPlan,
  ApiKeyRole,
  prepare,
  sql,
  type TQueryable,
  type TRowOf,
} from '@pets/db';
import { z } from 'zod';
import { apiKeyEnvironment, generateApiKey, hashApiKey } from './api-key-format';

/** A refusal of the caller's input, in one line fit for a person. */
export class ApiKeyInputError extends Error {}

export const ZNewApiKeyInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'name must not be empty')
      .max(100, 'name must be at most 100 characters'),
    plan: z.nativeEnum(ApiKeyPlan, {
      errorMap: () => ({ message: `plan must be one of ${Object.values(ApiKeyPlan).join(', ')}` }),
    }),
    environment: z.nativeEnum(ApiKeyEnvironment, {
      errorMap: () => ({ message: 'environment must be production or staging' }),
    }),
    rateLimitPerMinute: ZCustomLimit('rpm').optional(),
    rateLimitPerDay: ZCustomLimit('rpd').optional(),
    role: z
      .nativeEnum(ApiKeyRole, {
        errorMap: () => ({
          message: `role must be one of ${Object.values(ApiKeyRole).join(', ')}`,
        }),
      })
      .default('partner'),
    readOnly: z.boolean().default(false),
    /** The store's own site (docs/decisions.md, "The site as a first-party client"). */
    firstParty: z.boolean().default(false),
    /** After this instant the key is refused. Absent: it never expires. */
    expiresAt: z
      .date({ invalid_type_error: 'the expiry must be a date and time' })
      .refine((date) => !Number.isNaN(date.getTime()), 'the expiry must be a date and time')
      .optional(),
  })
  .superRefine((input, context) => {
    if (input.expiresAt !== undefined && input.expiresAt.getTime() <= Date.now()) {
      context.addIssue({ code: 'custom', message: 'the expiry must be in the future' });
      return;
    }
    if (input.readOnly && input.role !== 'partner') {
      context.addIssue({
        code: 'custom',
        message: 'read-only keys are partner keys: a staff key exists to write',
      });
      return;
    }
    if (input.firstParty && input.role !== 'partner') {
      context.addIssue({
        code: 'custom',
        message:
          "first-party keys are partner keys (the site's own key); a staff key is used through the site, not as it",
      });
      return;
    }
    const problem = customLimitsProblem(input.plan, {
      rpm: input.rateLimitPerMinute,
      rpd: input.rateLimitPerDay,
    });
    if (problem !== null) {
      context.addIssue({ code: 'custom', message: problem });
    }
  });
export type TNewApiKeyInput = z.input<typeof ZNewApiKeyInput>;

/** The columns both lists and authentication read. */
const KEY_COLUMNS = [
  'name',
  'plan',
  'environment',
  'role',
  'read_only as readOnly',
  'first_party as firstParty',
  'start',
  'rate_limit_per_minute as rateLimitPerMinute',
  'rate_limit_per_day as rateLimitPerDay',
  'revoked_at as revokedAt',
  'expires_at as expiresAt',
] as const;

/** What lists show: never the hash. */
const SUMMARY_COLUMNS = [
  'id',
  ...KEY_COLUMNS,
  'created_at as createdAt',
  'last_used_at as lastUsedAt',
  'previous_hash_expires_at as previousHashExpiresAt',
] as const;

/** A roll's overlap: from none (the old secret stops at once) to 7 days, as Stripe's roll offers. */
export const MAX_ROLL_OVERLAP_SECONDS = 7 * 86_400;

type TNewKeyParams = {
  name: string;
  plan: ApiKeyPlan;
  environment: ApiKeyEnvironment;
  role: ApiKeyRole;
  readOnly: boolean;
  firstParty: boolean;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
  hash: string;
  start: string;
  expiresAt: Date | null;
};

const INSERT_STATEMENT = prepare((db, p: TNewKeyParams) =>
  db
    .insertInto('api_keys')
    .values({
      name: p.name,
      plan: p.plan,
      environment: p.environment,
      role: p.role,
      read_only: p.readOnly,
      first_party: p.firstParty,
      rate_limit_per_minute: p.rateLimitPerMinute,
      rate_limit_per_day: p.rateLimitPerDay,
      hash: p.hash,
      start: p.start,
      expires_at: p.expiresAt,
    })
    .returning(SUMMARY_COLUMNS),
);

const LIST_STATEMENT = prepare((db, _p: Record<string, never>) =>
  db.selectFrom('api_keys').select(SUMMARY_COLUMNS).orderBy('id', 'asc'),
);

const BY_ID_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('api_keys').select(SUMMARY_COLUMNS).where('id', '=', p.id),
);

const BY_START_STATEMENT = prepare((db, p: { start: string }) =>
  db.selectFrom('api_keys').select(SUMMARY_COLUMNS).where('start', '=', p.start).orderBy('id'),
);

const BY_HASH_STATEMENT = prepare((db, p: { hash: string }) =>
  db.selectFrom('api_keys').select(SUMMARY_COLUMNS).where('hash', '=', p.hash),
);

const REVOKE_STATEMENT = prepare((db, p: { id: string; revokedAt: Date }) =>
  db
    .updateTable('api_keys')
    .set({ revoked_at: p.revokedAt })
    .where('id', '=', p.id)
    .where('revoked_at', 'is', null)
    .returning('id'),
);

/**
 * A new secret for the key: the current hash becomes the previous one, valid for `overlapSeconds`
 * more (by the database's clock); a previous hash still in its overlap is dropped, so rolling
 * again ends the older secret at once. The row, and so the key's id, orders, webhooks and rate-limit
 * tracker, stays. A revoked or expired key is not rolled.
 */
const ROLL_STATEMENT = prepare(
  (db, p: { id: string; hash: string; start: string; overlapSeconds: number }) =>
    db
      .updateTable('api_keys')
      .set((eb) => ({
        previous_hash: eb.ref('hash'),
        previous_hash_expires_at: sql<Date>`now() + make_interval(secs => ${p.overlapSeconds})`,
        hash: p.hash,
        start: p.start,
      }))
      .where('id', '=', p.id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .returning([...SUMMARY_COLUMNS, 'previous_hash as previousHash']),
);

/** What lists show: never the hash, never the key. */
export type TApiKeySummary = Omit<TRowOf<typeof LIST_STATEMENT>, 'id'> & { id: bigint };

// Issue 27 slice 2 (accounts): the owner and, for a session credential, its session, joined in.
/** The columns of the key's person, organisation and session (all null for an operator's key). */
const OWNER_COLUMNS = [
  'api_keys.kind',
  'accounts.id as accountId',
  'accounts.name as accountName',
  'accounts.role as accountRole',
  'accounts.status as accountStatus',
  'organizations.id as organizationId',
  'organizations.name as organizationName',
  'account_sessions.id as sessionId',
  'account_sessions.expires_at as sessionExpiresAt',
  'account_sessions.last_seen_at as sessionLastSeenAt',
  'account_sessions.idle_seconds as sessionIdleSeconds',
] as const;

/** The columns an organisation's key takes from its organisation at lookup. */
const ORG_LIMIT_COLUMNS: ReadonlySet<string> = new Set([
  'plan',
  'rate_limit_per_minute as rateLimitPerMinute',
  'rate_limit_per_day as rateLimitPerDay',
]);

/**
 * The key presented as its current secret or, after a roll, as its previous one: two unique
 * indexes, one BitmapOr. Whether the previous one still works is the caller's to decide (its
 * clock, the overlap's end), as it decides for revocation and expiry. Its person, organisation and
 * session are joined in (primary keys), for the identify-time checks of a session credential.
 */
const STORED_STATEMENT = prepare((db, p: { hash: string }) =>
  db
    .selectFrom('api_keys')
    .leftJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .leftJoin('organizations', 'organizations.id', 'api_keys.organization_id')
    .leftJoin('account_sessions', 'account_sessions.id', 'api_keys.session_id')
    .select([
      'api_keys.id as apiKeyId',
      ...KEY_COLUMNS.filter((column) => !ORG_LIMIT_COLUMNS.has(column)).map(
        (column) => `api_keys.${column}` as `api_keys.${typeof column}`,
      ),
      // An organisation's key has its organisation's plan and limits, whatever the row says, so
      // a plan change reaches every key of the organisation (within the key cache's 5 s).
      sql<ApiKeyPlan>`coalesce(organizations.plan, api_keys.plan)`.as('plan'),
      sql<
        number | null
      >`case when organizations.id is null then api_keys.rate_limit_per_minute else organizations.rate_limit_per_minute end`.as(
        'rateLimitPerMinute',
      ),
      sql<
        number | null
      >`case when organizations.id is null then api_keys.rate_limit_per_day else organizations.rate_limit_per_day end`.as(
        'rateLimitPerDay',
      ),
      'api_keys.hash',
      'api_keys.previous_hash as previousHash',
      'api_keys.previous_hash_expires_at as previousHashExpiresAt',
      ...OWNER_COLUMNS,
    ])
    .where((eb) =>
      eb.or([eb('api_keys.hash', '=', p.hash), eb('api_keys.previous_hash', '=', p.hash)]),
    ),
);

type TStoredRow = TRowOf<typeof STORED_STATEMENT>;

/** Who a key belongs to: a person (a session credential), an organisation, or nobody (the CLI's). */
export type TKeyOwner = { type: 'person' | 'organization'; id: string; name: string };

/** The session a session credential bears: its clocks, in epoch milliseconds. */
export type TKeySession = {
  id: string;
  expiresAtMs: number;
  lastSeenAtMs: number;
  idleSeconds: number;
};

/** What the server needs to authenticate and rate-limit a request. */
export type TStoredApiKeyRecord = Omit<
  TStoredRow,
  'apiKeyId' | (typeof OWNER_COLUMNS_OUT)[number]
> & {
  apiKeyId: bigint;
  kind: 'key' | 'session';
  owner: TKeyOwner | null;
  /** The person's role (admin, staff, developer) for a session credential, else null. */
  accountRole: 'admin' | 'staff' | 'developer' | null;
  /** False when the key's person is deactivated (or still invited): refused like a revoked key. */
  isAccountActive: boolean;
  session: TKeySession | null;
};

const OWNER_COLUMNS_OUT = [
  'accountId',
  'accountName',
  'accountRole',
  'accountStatus',
  'organizationId',
  'organizationName',
  'sessionId',
  'sessionExpiresAt',
  'sessionLastSeenAt',
  'sessionIdleSeconds',
] as const;

const toStored = (row: TStoredRow): TStoredApiKeyRecord => {
  const {
    apiKeyId,
    accountId,
    accountName,
    accountRole,
    accountStatus,
    organizationId,
    organizationName,
    sessionId,
    sessionExpiresAt,
    sessionLastSeenAt,
    sessionIdleSeconds,
    ...key
  } = row;
  const owner: TKeyOwner | null =
    accountId !== null && accountName !== null
      ? { type: 'person', id: String(accountId), name: accountName }
      : organizationId !== null && organizationName !== null
        ? { type: 'organization', id: String(organizationId), name: organizationName }
        : null;
  return {
    ...key,
    apiKeyId: BigInt(apiKeyId),
    owner,
    accountRole,
    isAccountActive: accountId === null || accountStatus === 'active',
    session:
      sessionId === null || sessionExpiresAt === null || sessionLastSeenAt === null
        ? null
        : {
            id: String(sessionId),
            expiresAtMs: sessionExpiresAt.getTime(),
            lastSeenAtMs: sessionLastSeenAt.getTime(),
            idleSeconds: sessionIdleSeconds ?? 0,
          },
  };
};

const COUNT_STATEMENT = prepare((db, _p: Record<string, never>) =>
  db.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('count')),
);

/** A key as lists show it: the id a number PostgreSQL sends as text, back to a bigint. */
const toSummary = (row: TRowOf<typeof LIST_STATEMENT>): TApiKeySummary => ({
  ...row,
  id: BigInt(row.id),
});

const START_PATTERN = /^pets_(live|test)_[0-9A-Za-z]{4}$/;
const ID_PATTERN = /^[1-9][0-9]{0,18}$/;

/**
 * Storage of API keys: only the SHA-256 of a key and its display start are kept; the key itself
 * exists once, in the return value of `create`. On a pool, or on a transaction's client.
 */
export class ApiKeysRepository {
  constructor(private readonly db: TQueryable) {}

  async create(input: TNewApiKeyInput): Promise<{ key: string; apiKey: TApiKeySummary }> {
    const parsed = ZNewApiKeyInput.safeParse(input);
    if (!parsed.success) {
      throw new ApiKeyInputError(parsed.error.issues[0]?.message ?? 'invalid key');
    }
    const { key, hash, start } = generateApiKey(parsed.data.environment);
    const { rows } = await INSERT_STATEMENT.execute(this.db, {
      name: parsed.data.name,
      plan: parsed.data.plan,
      environment: parsed.data.environment,
      role: parsed.data.role,
      readOnly: parsed.data.readOnly,
      firstParty: parsed.data.firstParty,
      rateLimitPerMinute: parsed.data.rateLimitPerMinute ?? null,
      rateLimitPerDay: parsed.data.rateLimitPerDay ?? null,
      hash,
      start,
      expiresAt: parsed.data.expiresAt ?? null,
    });
    return { key, apiKey: toSummary(rows[0] as TRowOf<typeof LIST_STATEMENT>) };
  }

  async list(): Promise<TApiKeySummary[]> {
    const { rows } = await LIST_STATEMENT.execute(this.db, {});
    return rows.map(toSummary);
  }

  /** How many keys there are, revoked or not. */
  async count(): Promise<number> {
    const { rows } = await COUNT_STATEMENT.execute(this.db, {});
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * Revokes the key named by its id, its display start or the key itself. A start shared by
   * several active keys is refused as ambiguous (name the id instead). Revoking a revoked key
   * changes nothing and says so.
   */
  async revoke(reference: string): Promise<{ apiKey: TApiKeySummary; wasAlreadyRevoked: boolean }> {
    const targets = await this.findTargets(reference);
    const active = targets.filter((key) => key.revokedAt === null);
    if (active.length > 1) {
      throw new ApiKeyInputError(
        `${reference} is the start of ${active.length} active keys (ids ${active.map((key) => key.id).join(', ')}): revoke by id`,
      );
    }
    const target = active[0] ?? targets[0];
    if (!target) {
      throw new ApiKeyInputError(`no API key matches ${reference}`);
    }
    if (target.revokedAt !== null) {
      return { apiKey: target, wasAlreadyRevoked: true };
    }
    const revokedAt = new Date();
    const { rows } = await REVOKE_STATEMENT.execute(this.db, { id: String(target.id), revokedAt });
    if (rows.length === 0) {
      const current = (await BY_ID_STATEMENT.execute(this.db, { id: String(target.id) })).rows[0];
      return { apiKey: current ? toSummary(current) : target, wasAlreadyRevoked: true };
    }
    return { apiKey: { ...target, revokedAt }, wasAlreadyRevoked: false };
  }

  /**
   * Gives the key named by its id, display start or the key itself a new secret, returned once;
   * the old secret keeps working for `overlapSeconds` (0 to 7 days). `previousHash` is the old
   * secret's hash, for the caller to evict from its key cache so that the overlap applies at once.
   */
  async roll(
    reference: string,
    overlapSeconds: number,
  ): Promise<{ key: string; apiKey: TApiKeySummary; previousHash: string }> {
    if (
      !Number.isInteger(overlapSeconds) ||
      overlapSeconds < 0 ||
      overlapSeconds > MAX_ROLL_OVERLAP_SECONDS
    ) {
      throw new ApiKeyInputError('the overlap must be whole seconds from 0 to 7 days');
    }
    const targets = await this.findTargets(reference);
    const active = targets.filter((key) => key.revokedAt === null);
    if (active.length > 1) {
      throw new ApiKeyInputError(
        `${reference} is the start of ${active.length} active keys (ids ${active.map((key) => key.id).join(', ')}): roll by id`,
      );
    }
    const target = active[0] ?? targets[0];
    if (!target) {
      throw new ApiKeyInputError(`no API key matches ${reference}`);
    }
    if (target.revokedAt !== null) {
      throw new ApiKeyInputError(`key ${target.id} (${target.start}) is revoked: create a new one`);
    }
    const { key, hash, start } = generateApiKey(target.environment);
    const { rows } = await ROLL_STATEMENT.execute(this.db, {
      id: String(target.id),
      hash,
      start,
      overlapSeconds,
    });
    const row = rows[0];
    if (!row) {
      throw new ApiKeyInputError(
        `key ${target.id} (${target.start}) has expired or was revoked meanwhile: create a new one`,
      );
    }
    const { previousHash, ...summary } = row;
    return { key, apiKey: toSummary(summary), previousHash: previousHash as string };
  }

  /**
   * The stored key whose current or previous (rolled) secret has this SHA-256 hash, revoked,
   * expired or not, or null. One indexed lookup.
   */
  async findByHash(hash: string): Promise<TStoredApiKeyRecord | null> {
    const row = (await STORED_STATEMENT.execute(this.db, { hash })).rows[0];
    return row ? toStored(row) : null;
  }

  /** The keys a revoke argument designates: an id, a display start, or the whole key. */
  private async findTargets(reference: string): Promise<TApiKeySummary[]> {
    const value = reference.trim();
    if (ID_PATTERN.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n) {
      return (await BY_ID_STATEMENT.execute(this.db, { id: value })).rows.map(toSummary);
    }
    if (START_PATTERN.test(value)) {
      return (await BY_START_STATEMENT.execute(this.db, { start: value })).rows.map(toSummary);
    }
    if (apiKeyEnvironment(value) !== null) {
      const { rows } = await BY_HASH_STATEMENT.execute(this.db, { hash: hashApiKey(value) });
      return rows.map(toSummary);
    }
    throw new ApiKeyInputError(
      `"${value.slice(0, 40)}" is neither a key id (such as 12) nor a display start (such as pets_live_3xK9)`,
    );
  }
}
