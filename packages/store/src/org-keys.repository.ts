import { type ApiKeyEnvironment, type ApiKeyPlan, prepare, sql, type TQueryable } from '@pets/db';
import { generateApiKey } from './api-key-format';

/**
 * The keys of developers' organisations (issue 27, §4.2): `api_keys` rows with an
 * `organization_id`, made through the developer portal. Every statement names the organisation,
 * so a person only ever reads or changes their own organisation's keys. The plan and limits of
 * such a key are its organisation's, joined in at lookup (`api-keys.repository.ts`); the copy
 * written on the row is the plan at creation, for lists of the CLI.
 */

/** An organisation's plan and custom (Enterprise) limits. */
export type TOrganizationPlan = {
  id: string;
  name: string;
  plan: ApiKeyPlan;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
};

const ORG_COLUMNS = [
  'id',
  'name',
  'plan',
  'rate_limit_per_minute as rateLimitPerMinute',
  'rate_limit_per_day as rateLimitPerDay',
] as const;

const ORGANIZATION = prepare((db, p: { id: string }) =>
  db.selectFrom('organizations').select(ORG_COLUMNS).where('id', '=', p.id),
);

/** The same row, locked: key creations of one organisation take turns (the live-key cap). */
const ORGANIZATION_FOR_UPDATE = prepare((db, p: { id: string }) =>
  db.selectFrom('organizations').select(ORG_COLUMNS).where('id', '=', p.id).forUpdate(),
);

const ORG_KEY_COLUMNS = [
  'id',
  'name',
  'environment',
  'read_only as readOnly',
  'start',
  'hash',
  'previous_hash as previousHash',
  'previous_hash_expires_at as previousHashExpiresAt',
  'created_at as createdAt',
  'last_used_at as lastUsedAt',
  'expires_at as expiresAt',
  'revoked_at as revokedAt',
] as const;

const LIST = prepare((db, p: { organizationId: string }) =>
  db
    .selectFrom('api_keys')
    .select(ORG_KEY_COLUMNS)
    .where('organization_id', '=', p.organizationId)
    .where('kind', '=', 'key')
    .orderBy('id', 'desc'),
);

const FIND = prepare((db, p: { organizationId: string; id: string }) =>
  db
    .selectFrom('api_keys')
    .select(ORG_KEY_COLUMNS)
    .where('organization_id', '=', p.organizationId)
    .where('kind', '=', 'key')
    .where('id', '=', p.id),
);

/** Live keys that still work: neither revoked nor expired (the database's clock). */
const COUNT_LIVE = prepare((db, p: { organizationId: string }) =>
  db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', p.organizationId)
    .where('kind', '=', 'key')
    .where('environment', '=', 'production')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)])),
);

/** Every key that still works, test or live (the organisation's cap on all of its keys). */
const COUNT_ACTIVE = prepare((db, p: { organizationId: string }) =>
  db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', p.organizationId)
    .where('kind', '=', 'key')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)])),
);

/** The API reference's keys that still work: the next "Try it" revokes them. */
const REVOKE_FOR_REFERENCE = prepare((db, p: { organizationId: string }) =>
  db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`now()` })
    .where('organization_id', '=', p.organizationId)
    .where('kind', '=', 'key')
    .where('for_reference', '=', true)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .returning(ORG_KEY_COLUMNS),
);

type TInsert = {
  organizationId: string;
  createdByAccountId: string;
  name: string;
  plan: ApiKeyPlan;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
  environment: ApiKeyEnvironment;
  readOnly: boolean;
  expiresAt: Date | null;
  /** Made by the portal's "Try it in the API reference" (the next press revokes it). */
  forReference: boolean;
  hash: string;
  start: string;
};

const INSERT = prepare((db, p: TInsert) =>
  db
    .insertInto('api_keys')
    .values({
      name: p.name,
      plan: p.plan,
      environment: p.environment,
      role: 'partner',
      read_only: p.readOnly,
      first_party: false,
      rate_limit_per_minute: p.rateLimitPerMinute,
      rate_limit_per_day: p.rateLimitPerDay,
      hash: p.hash,
      start: p.start,
      expires_at: p.expiresAt,
      kind: 'key',
      organization_id: p.organizationId,
      created_by_account_id: p.createdByAccountId,
      for_reference: p.forReference,
    })
    .returning(ORG_KEY_COLUMNS),
);

const REVOKE = prepare((db, p: { organizationId: string; id: string }) =>
  db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`now()` })
    .where('organization_id', '=', p.organizationId)
    .where('kind', '=', 'key')
    .where('id', '=', p.id)
    .where('revoked_at', 'is', null)
    .returning(ORG_KEY_COLUMNS),
);

type TOrgKeyRow = {
  id: string;
  name: string;
  environment: ApiKeyEnvironment;
  readOnly: boolean;
  start: string;
  hash: string;
  previousHash: string | null;
  previousHashExpiresAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

/** An organisation's key as the service reads it; its hashes only for evicting it from caches. */
export type TOrgKey = Omit<TOrgKeyRow, 'id'> & { id: string };

const toKey = (row: unknown): TOrgKey => {
  const key = row as TOrgKeyRow;
  return { ...key, id: String(key.id) };
};

export class OrgKeysRepository {
  constructor(private readonly db: TQueryable) {}

  async organization(id: string, lock = false): Promise<TOrganizationPlan | null> {
    const statement = lock ? ORGANIZATION_FOR_UPDATE : ORGANIZATION;
    const row = (await statement.execute(this.db, { id })).rows[0];
    return row ? { ...row, id: String(row.id) } : null;
  }

  async list(organizationId: string): Promise<TOrgKey[]> {
    return (await LIST.execute(this.db, { organizationId })).rows.map(toKey);
  }

  async find(organizationId: string, id: string): Promise<TOrgKey | null> {
    const row = (await FIND.execute(this.db, { organizationId, id })).rows[0];
    return row ? toKey(row) : null;
  }

  async countLive(organizationId: string): Promise<number> {
    const row = (await COUNT_LIVE.execute(this.db, { organizationId })).rows[0];
    return Number(row?.count ?? 0);
  }

  /** Keys that still work, test and live alike. */
  async countActive(organizationId: string): Promise<number> {
    const row = (await COUNT_ACTIVE.execute(this.db, { organizationId })).rows[0];
    return Number(row?.count ?? 0);
  }

  /** Revokes the organisation's API reference keys that still work; answers them. */
  async revokeForReference(organizationId: string): Promise<TOrgKey[]> {
    return (await REVOKE_FOR_REFERENCE.execute(this.db, { organizationId })).rows.map(toKey);
  }

  /** A new key of the organisation; the plaintext is in the answer, and nowhere else. */
  async create(input: Omit<TInsert, 'hash' | 'start'>): Promise<{ key: string; apiKey: TOrgKey }> {
    const { key, hash, start } = generateApiKey(input.environment);
    const row = (await INSERT.execute(this.db, { ...input, hash, start })).rows[0];
    return { key, apiKey: toKey(row) };
  }

  /** Revokes the key now; null when it is not the organisation's or was revoked already. */
  async revoke(organizationId: string, id: string): Promise<TOrgKey | null> {
    const row = (await REVOKE.execute(this.db, { organizationId, id })).rows[0];
    return row ? toKey(row) : null;
  }
}
