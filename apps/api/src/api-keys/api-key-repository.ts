import {
  ApiKeyEnvironment,
  ApiKeyPlan,
  ApiKeyRole,
  type Prisma,
  type PrismaClient,
} from '@pets/db';
import { z } from 'zod';
import { apiKeyEnvironment, generateApiKey, hashApiKey } from './api-key-format';

/**
 * Storage of API keys: only the SHA-256 of a key and its display start are kept; the key itself
 * exists once, in the return value of createApiKey. Every function takes the Prisma client or a
 * transaction client.
 */

type TDb = PrismaClient | Prisma.TransactionClient;

/** A refusal of the caller's input, in one line fit for a person. */
export class ApiKeyInputError extends Error {}

const ZLimit = (flag: string) =>
  z
    .number({ invalid_type_error: `${flag} must be a whole number` })
    .int(`${flag} must be a whole number`)
    .min(1, `${flag} must be at least 1`)
    .max(2_147_483_647, `${flag} is too large`);

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
    rateLimitPerMinute: ZLimit('rpm').optional(),
    rateLimitPerDay: ZLimit('rpd').optional(),
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
  })
  .superRefine((input, context) => {
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
    const hasCustom = input.rateLimitPerMinute !== undefined || input.rateLimitPerDay !== undefined;
    if (input.plan !== 'enterprise' && hasCustom) {
      context.addIssue({
        code: 'custom',
        message: `custom limits (rpm, rpd) are for enterprise keys only; the ${input.plan} plan has fixed limits`,
      });
      return;
    }
    if (
      input.plan === 'enterprise' &&
      (input.rateLimitPerMinute === undefined || input.rateLimitPerDay === undefined)
    ) {
      context.addIssue({
        code: 'custom',
        message: 'enterprise keys need both custom limits: rpm (per minute) and rpd (per day)',
      });
      return;
    }
    if ((input.rateLimitPerDay ?? 0) < (input.rateLimitPerMinute ?? 0)) {
      context.addIssue({ code: 'custom', message: 'rpd must be at least rpm' });
    }
  });
export type TNewApiKeyInput = z.input<typeof ZNewApiKeyInput>;

/** What lists show: never the hash, never the key. */
export type TApiKeySummary = {
  id: bigint;
  name: string;
  plan: ApiKeyPlan;
  environment: ApiKeyEnvironment;
  role: ApiKeyRole;
  readOnly: boolean;
  firstParty: boolean;
  start: string;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
  createdAt: Date;
  revokedAt: Date | null;
};

/** What the server needs to authenticate and rate-limit a request. */
export type TStoredApiKeyRecord = {
  apiKeyId: bigint;
  name: string;
  start: string;
  plan: ApiKeyPlan;
  environment: ApiKeyEnvironment;
  role: ApiKeyRole;
  readOnly: boolean;
  /** May vouch for a visitor's address (Pets-Visitor-IP): the store's own site. */
  firstParty: boolean;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
  hash: string;
  revokedAt: Date | null;
};

const summarySelect = {
  id: true,
  name: true,
  plan: true,
  environment: true,
  role: true,
  readOnly: true,
  firstParty: true,
  start: true,
  rateLimitPerMinute: true,
  rateLimitPerDay: true,
  createdAt: true,
  revokedAt: true,
} as const satisfies Prisma.ApiKeySelect;

export const createApiKey = async (
  db: TDb,
  input: TNewApiKeyInput,
): Promise<{ key: string; apiKey: TApiKeySummary }> => {
  const parsed = ZNewApiKeyInput.safeParse(input);
  if (!parsed.success) {
    throw new ApiKeyInputError(parsed.error.issues[0]?.message ?? 'invalid key');
  }
  const { key, hash, start } = generateApiKey(parsed.data.environment);
  const apiKey = await db.apiKey.create({
    data: {
      name: parsed.data.name,
      plan: parsed.data.plan,
      environment: parsed.data.environment,
      rateLimitPerMinute: parsed.data.rateLimitPerMinute ?? null,
      rateLimitPerDay: parsed.data.rateLimitPerDay ?? null,
      role: parsed.data.role,
      readOnly: parsed.data.readOnly,
      firstParty: parsed.data.firstParty,
      hash,
      start,
    },
    select: summarySelect,
  });
  return { key, apiKey };
};

export const listApiKeys = (db: TDb): Promise<TApiKeySummary[]> =>
  db.apiKey.findMany({ select: summarySelect, orderBy: { id: 'asc' } });

const START_PATTERN = /^pets_(live|test)_[0-9A-Za-z]{4}$/;
const ID_PATTERN = /^[1-9][0-9]{0,18}$/;

/** The keys a revoke argument designates: an id, a display start, or the whole key. */
const findTargets = async (db: TDb, reference: string): Promise<TApiKeySummary[]> => {
  const value = reference.trim();
  if (ID_PATTERN.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n) {
    const found = await db.apiKey.findUnique({
      where: { id: BigInt(value) },
      select: summarySelect,
    });
    return found ? [found] : [];
  }
  if (START_PATTERN.test(value)) {
    return db.apiKey.findMany({ where: { start: value }, select: summarySelect });
  }
  if (apiKeyEnvironment(value) !== null) {
    const found = await db.apiKey.findUnique({
      where: { hash: hashApiKey(value) },
      select: summarySelect,
    });
    return found ? [found] : [];
  }
  throw new ApiKeyInputError(
    `"${value.slice(0, 40)}" is neither a key id (such as 12) nor a display start (such as pets_live_3xK9)`,
  );
};

/**
 * Revokes the key named by its id, its display start or the key itself. A start shared by
 * several active keys is refused as ambiguous (name the id instead). Revoking a revoked key
 * changes nothing and says so.
 */
export const revokeApiKey = async (
  db: TDb,
  reference: string,
): Promise<{ apiKey: TApiKeySummary; wasAlreadyRevoked: boolean }> => {
  const targets = await findTargets(db, reference);
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
  const { count } = await db.apiKey.updateMany({
    where: { id: target.id, revokedAt: null },
    data: { revokedAt },
  });
  if (count === 0) {
    const current = await db.apiKey.findUniqueOrThrow({
      where: { id: target.id },
      select: summarySelect,
    });
    return { apiKey: current, wasAlreadyRevoked: true };
  }
  return { apiKey: { ...target, revokedAt }, wasAlreadyRevoked: false };
};

/** The stored key with this SHA-256 hash, revoked or not, or null. One indexed lookup. */
export const findKeyByHash = async (db: TDb, hash: string): Promise<TStoredApiKeyRecord | null> => {
  const found = await db.apiKey.findUnique({
    where: { hash },
    select: {
      id: true,
      name: true,
      start: true,
      plan: true,
      environment: true,
      role: true,
      readOnly: true,
      firstParty: true,
      rateLimitPerMinute: true,
      rateLimitPerDay: true,
      hash: true,
      revokedAt: true,
    },
  });
  if (!found) {
    return null;
  }
  const { id, ...rest } = found;
  return { apiKeyId: id, ...rest };
};
