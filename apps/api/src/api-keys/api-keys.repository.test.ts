import { apiKeyEnvironment, hashApiKey } from '@pets/store/api-key-format';
import {
  ApiKeyInputError,
  ApiKeysRepository,
  type TNewApiKeyInput,
} from '@pets/store/api-keys.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryOnce, testDatabase } from '../test/test-database';

const { prisma, pool, url, create, drop } = testDatabase();
const keys = new ApiKeysRepository(pool);
beforeAll(create);
afterAll(drop);

/** Every stored column of every key, as text, read past Prisma. */
const rawRows = async (): Promise<string[]> =>
  (await queryOnce(url, 'SELECT * FROM api_keys')).map((row) => JSON.stringify(row));

const inputError = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiKeyInputError);
    return (error as Error).message;
  }
  throw new Error('expected an ApiKeyInputError');
};

describe('create', () => {
  it('returns the key once and stores only its SHA-256 and display start', async () => {
    const { key, apiKey } = await keys.create({
      name: 'Shelter partner',
      plan: 'pro',
      environment: 'production',
    });
    expect(key).toMatch(/^pets_live_[0-9A-Za-z]{32}$/);
    expect(apiKeyEnvironment(key)).toBe('production');
    expect(apiKey).toMatchObject({
      name: 'Shelter partner',
      plan: 'pro',
      environment: 'production',
      start: key.slice(0, 14),
      rateLimitPerMinute: null,
      rateLimitPerDay: null,
      revokedAt: null,
    });
    expect(apiKey).not.toHaveProperty('hash');
    const rows = await rawRows();
    const row = rows.find((text) => text.includes(hashApiKey(key)));
    expect(row).toBeDefined();
    expect(rows.join('\n')).not.toContain(key.slice(10));
  });

  it('gives staging keys the staging prefix', async () => {
    const { key } = await keys.create({
      name: 'QA',
      plan: 'free',
      environment: 'staging',
    });
    expect(key).toMatch(/^pets_test_/);
  });

  it('stores custom limits of enterprise keys', async () => {
    const { apiKey } = await keys.create({
      name: 'Big shelter',
      plan: 'enterprise',
      environment: 'production',
      rateLimitPerMinute: 5_000,
      rateLimitPerDay: 2_000_000,
    });
    expect(apiKey).toMatchObject({ rateLimitPerMinute: 5_000, rateLimitPerDay: 2_000_000 });
  });

  it.each([
    [{ plan: 'pro', rateLimitPerMinute: 10, rateLimitPerDay: 100 }, /enterprise keys only/],
    [{ plan: 'enterprise' }, /need both custom limits/],
    [{ plan: 'enterprise', rateLimitPerMinute: 10 }, /need both custom limits/],
    [
      { plan: 'enterprise', rateLimitPerMinute: 100, rateLimitPerDay: 10 },
      /rpd must be at least rpm/,
    ],
    [{ plan: 'enterprise', rateLimitPerMinute: 0, rateLimitPerDay: 10 }, /rpm must be at least 1/],
    [{ plan: 'gold' }, /plan must be one of free, pro, business, enterprise/],
    [{ plan: 'free', name: '   ' }, /name must not be empty/],
    [{ plan: 'free', environment: 'test' }, /environment must be production or staging/],
  ])('refuses %j', async (overrides, message) => {
    const before = (await rawRows()).length;
    const input = { name: 'x', environment: 'production', ...overrides } as TNewApiKeyInput;
    expect(await inputError(keys.create(input))).toMatch(message);
    expect((await rawRows()).length).toBe(before);
  });
});

describe('list', () => {
  it('lists every key in creation order without hash or key', async () => {
    const { apiKey } = await keys.create({
      name: 'Listed',
      plan: 'business',
      environment: 'production',
    });
    const listed = await keys.list();
    expect(listed.at(-1)).toEqual(apiKey);
    expect(listed.map((key) => key.id)).toEqual(
      [...listed.map((key) => key.id)].sort((a, b) => (a < b ? -1 : 1)),
    );
    for (const key of listed) {
      expect(Object.keys(key).sort()).toEqual([
        'createdAt',
        'environment',
        'expiresAt',
        'firstParty',
        'id',
        'lastUsedAt',
        'name',
        'plan',
        'previousHashExpiresAt',
        'rateLimitPerDay',
        'rateLimitPerMinute',
        'readOnly',
        'revokedAt',
        'role',
        'start',
      ]);
    }
  });
});

describe('revoke', () => {
  it('revokes by id', async () => {
    const { apiKey } = await keys.create({
      name: 'By id',
      plan: 'free',
      environment: 'production',
    });
    const result = await keys.revoke(apiKey.id.toString());
    expect(result.wasAlreadyRevoked).toBe(false);
    expect(result.apiKey.revokedAt).toBeInstanceOf(Date);
    const stored = await prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(stored.revokedAt).toEqual(result.apiKey.revokedAt);
  });

  it('revokes by display start, and by the key itself', async () => {
    const byStart = await keys.create({
      name: 'By start',
      plan: 'free',
      environment: 'production',
    });
    expect((await keys.revoke(byStart.apiKey.start)).apiKey.id).toBe(byStart.apiKey.id);
    const byKey = await keys.create({
      name: 'By key',
      plan: 'free',
      environment: 'staging',
    });
    expect((await keys.revoke(byKey.key)).apiKey.id).toBe(byKey.apiKey.id);
    expect((await keys.findByHash(hashApiKey(byKey.key)))?.revokedAt).toBeInstanceOf(Date);
  });

  it('says so when the key was already revoked, and keeps the first revocation time', async () => {
    const { apiKey } = await keys.create({
      name: 'Twice',
      plan: 'free',
      environment: 'production',
    });
    const first = await keys.revoke(apiKey.id.toString());
    const second = await keys.revoke(apiKey.id.toString());
    expect(second).toEqual({ apiKey: first.apiKey, wasAlreadyRevoked: true });
  });

  it('refuses a display start shared by several active keys, naming their ids', async () => {
    const one = await keys.create({
      name: 'Twin 1',
      plan: 'free',
      environment: 'production',
    });
    const two = await keys.create({
      name: 'Twin 2',
      plan: 'free',
      environment: 'production',
    });
    // 62^4 starts per environment: collisions are rare but real.
    await prisma.apiKey.update({ where: { id: two.apiKey.id }, data: { start: one.apiKey.start } });
    expect(await inputError(keys.revoke(one.apiKey.start))).toBe(
      `${one.apiKey.start} is the start of 2 active keys (ids ${one.apiKey.id}, ${two.apiKey.id}): revoke by id`,
    );
    expect(await prisma.apiKey.count({ where: { start: one.apiKey.start, revokedAt: null } })).toBe(
      2,
    );
    // Once one is revoked, the start names the other without ambiguity.
    await keys.revoke(one.apiKey.id.toString());
    expect((await keys.revoke(one.apiKey.start)).apiKey.id).toBe(two.apiKey.id);
  });

  it.each([
    ['999999999', /no API key matches 999999999/],
    ['pets_live_zzzz', /no API key matches pets_live_zzzz/],
    ['hello', /neither a key id .* nor a display start/],
    ['-1', /neither a key id/],
    ['99999999999999999999', /neither a key id/],
  ])('refuses %s', async (reference, message) => {
    expect(await inputError(keys.revoke(reference))).toMatch(message);
  });
});

describe('findByHash', () => {
  it('returns what authentication, rate limiting and GET /v1/me need, for active and revoked keys', async () => {
    const { key, apiKey } = await keys.create({
      name: 'Lookup',
      plan: 'enterprise',
      environment: 'production',
      rateLimitPerMinute: 50,
      rateLimitPerDay: 500,
    });
    expect(await keys.findByHash(hashApiKey(key))).toEqual({
      apiKeyId: apiKey.id,
      name: 'Lookup',
      start: apiKey.start,
      plan: 'enterprise',
      environment: 'production',
      role: 'partner',
      readOnly: false,
      firstParty: false,
      rateLimitPerMinute: 50,
      rateLimitPerDay: 500,
      hash: hashApiKey(key),
      revokedAt: null,
      // An operator's key: nobody's, no session (issue 27).
      kind: 'key',
      owner: null,
      accountRole: null,
      isAccountActive: true,
      session: null,
      expiresAt: null,
      previousHash: null,
      previousHashExpiresAt: null,
    });
    const staff = await keys.create({
      name: 'Store',
      plan: 'pro',
      environment: 'production',
      role: 'staff',
    });
    expect(await keys.findByHash(hashApiKey(staff.key))).toMatchObject({
      role: 'staff',
      readOnly: false,
    });
    const kiosk = await keys.create({
      name: 'Kiosk',
      plan: 'free',
      environment: 'production',
      readOnly: true,
    });
    expect(await keys.findByHash(hashApiKey(kiosk.key))).toMatchObject({
      role: 'partner',
      readOnly: true,
    });
    expect(
      await inputError(
        keys.create({
          name: 'No',
          plan: 'free',
          environment: 'production',
          role: 'staff',
          readOnly: true,
        }),
      ),
    ).toMatch(/read-only keys are partner keys/);
    const site = await keys.create({
      name: 'Site',
      plan: 'business',
      environment: 'production',
      firstParty: true,
    });
    expect(await keys.findByHash(hashApiKey(site.key))).toMatchObject({
      role: 'partner',
      firstParty: true,
    });
    expect(
      await inputError(
        keys.create({
          name: 'No',
          plan: 'business',
          environment: 'production',
          role: 'staff',
          firstParty: true,
        }),
      ),
    ).toMatch(/first-party keys are partner keys/);
    await keys.revoke(apiKey.id.toString());
    expect((await keys.findByHash(hashApiKey(key)))?.revokedAt).toBeInstanceOf(Date);
    expect(await keys.findByHash(hashApiKey(`${key}x`))).toBeNull();
  });
});

describe('roll', () => {
  it('keeps the row, moves the old hash aside for the overlap, and finds the key by either hash', async () => {
    const { key: oldKey, apiKey } = await keys.create({
      name: 'Rolled',
      plan: 'pro',
      environment: 'staging',
    });
    const rolled = await keys.roll(apiKey.start, 3_600);
    expect(rolled.key).toMatch(/^pets_test_[0-9A-Za-z]{32}$/);
    expect(rolled.previousHash).toBe(hashApiKey(oldKey));
    expect(rolled.apiKey).toMatchObject({ id: apiKey.id, name: 'Rolled', revokedAt: null });
    expect(rolled.apiKey.start).toBe(rolled.key.slice(0, 14));
    const overlapMs = (rolled.apiKey.previousHashExpiresAt?.getTime() ?? 0) - Date.now();
    expect(overlapMs).toBeGreaterThan(3_500_000);
    expect(overlapMs).toBeLessThanOrEqual(3_600_000);
    const byNew = await keys.findByHash(hashApiKey(rolled.key));
    const byOld = await keys.findByHash(hashApiKey(oldKey));
    expect(byNew).toEqual(byOld);
    expect(byNew).toMatchObject({
      apiKeyId: apiKey.id,
      hash: hashApiKey(rolled.key),
      previousHash: hashApiKey(oldKey),
      previousHashExpiresAt: rolled.apiKey.previousHashExpiresAt,
    });
    // The plaintext of neither secret is stored.
    const rows = (await rawRows()).join('\n');
    expect(rows).not.toContain(rolled.key.slice(14));
    expect(rows).not.toContain(oldKey.slice(14));
  });

  it('takes an overlap of 0 to 7 days, and refuses revoked or expired keys', async () => {
    const { apiKey } = await keys.create({
      name: 'Bounds',
      plan: 'free',
      environment: 'production',
    });
    for (const overlap of [-1, 1.5, 7 * 86_400 + 1]) {
      expect(await inputError(keys.roll(apiKey.id.toString(), overlap))).toMatch(/0 to 7 days/);
    }
    expect((await keys.roll(apiKey.id.toString(), 7 * 86_400)).apiKey.id).toBe(apiKey.id);
    expect((await keys.roll(apiKey.id.toString(), 0)).apiKey.id).toBe(apiKey.id);
    await keys.revoke(apiKey.id.toString());
    expect(await inputError(keys.roll(apiKey.id.toString(), 0))).toMatch(/is revoked/);
    expect(await inputError(keys.roll('424242', 0))).toMatch(/no API key matches 424242/);

    const expiring = await keys.create({
      name: 'Expiring',
      plan: 'free',
      environment: 'production',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(expiring.apiKey.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    await prisma.apiKey.update({
      where: { id: expiring.apiKey.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    expect(await inputError(keys.roll(expiring.apiKey.id.toString(), 0))).toMatch(
      /has expired or was revoked/,
    );
  });

  it('refuses an expiry in the past', async () => {
    expect(
      await inputError(
        keys.create({
          name: 'Late',
          plan: 'free',
          environment: 'production',
          expiresAt: new Date(Date.now() - 1),
        }),
      ),
    ).toMatch(/the expiry must be in the future/);
  });
});
