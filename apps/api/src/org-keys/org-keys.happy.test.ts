import {
  MAX_ACTIVE_KEYS_PER_ORGANIZATION,
  type TIssuedOrgKey,
  type TKeyUsage,
  type TOrgKey,
} from '@pets/contract/site';
import { OrgKeysRepository } from '@pets/store/org-keys.repository';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TSignedIn,
  type TTestSite,
  testSite,
} from '../accounts/accounts.test-support';
import { errorBody, json, useTestApi } from '../test/api-harness';
import { UsageCounter } from '../usage/usage-counter';

/**
 * The developer portal's keys over real HTTP (issue 27, §4.2–4.3): a developer signed in through
 * the site makes, lists, rolls and revokes their organisation's keys and reads their usage; the
 * keys work on /v1 at once, and stop at once in this process. The key cache's clocks skip time
 * instead of waiting (as in key-lifecycle.test.ts).
 */

let skippedMs = 0;
const api = useTestApi({
  env: { ...ACCOUNT_TEST_ENV, JOBS_WORKER: 'off' },
  keyCache: {
    now: () => performance.now() + skippedMs,
    wallNow: () => Date.now() + skippedMs,
  },
});

let site: TTestSite;
let developer: TSignedIn;

beforeAll(async () => {
  site = await testSite(api);
  developer = await signInAs(site, await createAccount(api, 'developer'));
});

const asDeveloper = (
  path: string,
  init: { method?: string; body?: unknown } = {},
  who: TSignedIn = developer,
) => site.asPerson(who.credential, `/internal${path}`, init);

const createKey = async (
  body: Record<string, unknown>,
  who: TSignedIn = developer,
): Promise<TIssuedOrgKey> => {
  const response = await asDeveloper('/org/keys', { body }, who);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TIssuedOrgKey;
};

const statusOf = async (key: string, path = '/v1/me') => {
  const response = await api.fetch(path, { key });
  await response.arrayBuffer();
  return response.status;
};

const listKeys = async (who: TSignedIn = developer): Promise<TOrgKey[]> => {
  const response = await asDeveloper('/org/keys', {}, who);
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: TOrgKey[] }).keys;
};

describe('the organisation', () => {
  it('has the Free plan and its limits after sign-up', async () => {
    const response = await asDeveloper('/org');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: developer.account.organization?.name,
      plan: 'free',
      limits: { perMinute: 60, perDay: 1000 },
    });
  });
});

describe('creating a key', () => {
  it('shows the key once; it works on /v1 at once and says whose it is', async () => {
    const { key, apiKey } = await createKey({ name: 'Shelter app', mode: 'live', readOnly: false });
    expect(key).toMatch(/^pets_live_/);
    expect(apiKey).toMatchObject({
      name: 'Shelter app',
      start: key.slice(0, 14),
      mode: 'live',
      readOnly: false,
      status: 'active',
      expiresAt: null,
      lastUsedAt: null,
      previousSecretExpiresAt: null,
    });

    expect(await statusOf(key, '/v1/pets')).toBe(200);
    const me = await api.fetch('/v1/me', { key });
    expect(await me.json()).toMatchObject({
      mode: 'live',
      owner: { type: 'organization', name: developer.account.organization?.name },
    });

    // Listed, newest first, and never again in plain text.
    const response = await asDeveloper('/org/keys');
    const text = await response.text();
    expect(text).not.toContain(key);
    const listed = (JSON.parse(text) as { keys: TOrgKey[] }).keys;
    expect(listed[0]).toMatchObject({ id: apiKey.id, name: 'Shelter app', status: 'active' });
  });

  it('a test key reads the live store but gets 403 for a write', async () => {
    const { key, apiKey } = await createKey({ name: 'Try-out', mode: 'test', readOnly: false });
    expect(key).toMatch(/^pets_test_/);
    expect(apiKey).toMatchObject({ mode: 'test', readOnly: false });
    expect(await statusOf(key, '/v1/pets')).toBe(200);
    const write = await api.fetch('/v1/pets', { key, ...json({ name: 'Rex', categoryId: 1 }) });
    expect(write.status).toBe(403);
    expect((await errorBody(write)).message).toMatch(/test key/i);
  });

  it('with an expiry at most a year ahead', async () => {
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const { apiKey } = await createKey({ name: 'Month', mode: 'live', expiresAt: soon });
    expect(apiKey.expiresAt).toBe(soon);

    const far = new Date(Date.now() + 400 * 86_400_000).toISOString();
    const refused = await asDeveloper('/org/keys', {
      body: { name: 'Forever', mode: 'live', expiresAt: far },
    });
    expect(refused.status).toBe(400);
    expect(await errorBody(refused)).toMatchObject({ code: 'invalid_request' });
    const past = await asDeveloper('/org/keys', {
      body: { name: 'Past', mode: 'live', expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
  });

  it('is refused (403) until the email address is verified', async () => {
    const account = await createAccount(api, 'developer');
    await api.pool.query('UPDATE accounts SET email_verified_at = NULL WHERE id = $1', [
      account.id,
    ]);
    const unverified = await signInAs(site, account);
    const response = await asDeveloper(
      '/org/keys',
      { body: { name: 'Early', mode: 'live' } },
      unverified,
    );
    expect(response.status).toBe(403);
    const body = await errorBody(response);
    expect(body).toMatchObject({ code: 'email_not_confirmed', status: 403 });
    expect(body.message).toMatch(/confirm your email address/i);
    expect(await listKeys(unverified)).toEqual([]);
  });

  it('stops at 50 live keys per organisation; test keys do not count', async () => {
    const busy = await signInAs(site, await createAccount(api, 'developer'));
    for (let index = 0; index < 50; index += 1) {
      await createKey({ name: `Live ${index}`, mode: 'live' }, busy);
    }
    const refused = await asDeveloper(
      '/org/keys',
      { body: { name: 'One more', mode: 'live' } },
      busy,
    );
    expect(refused.status).toBe(403);
    expect((await errorBody(refused)).message).toMatch(/50 live keys/);
    await createKey({ name: 'A test key', mode: 'test' }, busy);

    // A revoked key frees its place.
    const first = (await listKeys(busy)).find((key) => key.name === 'Live 0') as TOrgKey;
    const revoked = await asDeveloper(`/org/keys/${first.id}/revoke`, { method: 'POST' }, busy);
    expect(revoked.status).toBe(200);
    await createKey({ name: 'One more', mode: 'live' }, busy);
  });
});

describe('the cap on all keys, test and live', () => {
  it(`stops at ${MAX_ACTIVE_KEYS_PER_ORGANIZATION} keys that still work, "Try it" too, in the error's shape; a revoked or expired key frees a place`, async () => {
    const busy = await signInAs(site, await createAccount(api, 'developer'));
    const organization = (await (await asDeveloper('/org', {}, busy)).json()) as { id: string };
    // 99 straight into the table (the API's own creation is tested above), one of them expired:
    // 98 that work, and two more through the API make 100.
    const keys = new OrgKeysRepository(api.pool);
    for (let index = 0; index < MAX_ACTIVE_KEYS_PER_ORGANIZATION - 1; index += 1) {
      await keys.create({
        organizationId: organization.id,
        createdByAccountId: busy.account.id,
        name: `Test ${index}`,
        plan: 'free',
        rateLimitPerMinute: null,
        rateLimitPerDay: null,
        environment: 'staging',
        readOnly: false,
        expiresAt: index === 0 ? new Date(Date.now() - 1000) : null,
        forReference: false,
      });
    }
    await createKey({ name: 'Ninety-ninth', mode: 'test' }, busy);
    await createKey({ name: 'Hundredth', mode: 'live' }, busy);

    const refused = await asDeveloper(
      '/org/keys',
      { body: { name: 'One more', mode: 'test' } },
      busy,
    );
    expect(refused.status).toBe(403);
    expect(await errorBody(refused)).toEqual({
      code: 'forbidden',
      status: 403,
      message: `Your organisation has ${MAX_ACTIVE_KEYS_PER_ORGANIZATION} keys that still work, the most it may have: revoke the ones you no longer use first.`,
    });
    const tryIt = await asDeveloper('/org/keys/reference', { method: 'POST' }, busy);
    expect(tryIt.status).toBe(403);
    expect((await errorBody(tryIt)).message).toMatch(/keys that still work/);

    const first = (await listKeys(busy)).find((key) => key.name === 'Test 1') as TOrgKey;
    expect(
      (await asDeveloper(`/org/keys/${first.id}/revoke`, { method: 'POST' }, busy)).status,
    ).toBe(200);
    await createKey({ name: 'One more', mode: 'test' }, busy);
  });
});

describe('"Try it in the API reference"', () => {
  it('makes a test, read-only key for the hour, and revokes the ones made by earlier presses only', async () => {
    const presser = await signInAs(site, await createAccount(api, 'developer'));
    // A key the developer named "API reference" themselves is theirs: the button leaves it alone.
    const own = await createKey({ name: 'API reference', mode: 'test' }, presser);
    const issued: TIssuedOrgKey[] = [];
    for (let press = 0; press < 3; press += 1) {
      const response = await asDeveloper('/org/keys/reference', { method: 'POST' }, presser);
      expect(response.status, await response.clone().text()).toBe(201);
      issued.push((await response.json()) as TIssuedOrgKey);
    }
    const [firstPress, secondPress, lastPress] = issued as [
      TIssuedOrgKey,
      TIssuedOrgKey,
      TIssuedOrgKey,
    ];
    expect(lastPress.key).toMatch(/^pets_test_/);
    expect(lastPress.apiKey).toMatchObject({
      name: 'API reference',
      mode: 'test',
      readOnly: true,
      status: 'active',
    });
    const lifetime =
      Date.parse(lastPress.apiKey.expiresAt ?? '') - Date.parse(lastPress.apiKey.createdAt);
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000 + 1000);

    const statuses = new Map((await listKeys(presser)).map((key) => [key.id, key.status]));
    expect(statuses.get(firstPress.apiKey.id)).toBe('revoked');
    expect(statuses.get(secondPress.apiKey.id)).toBe('revoked');
    expect(statuses.get(lastPress.apiKey.id)).toBe('active');
    expect(statuses.get(own.apiKey.id)).toBe('active');

    // The earlier presses' keys stop at once in this process; the last one reads, and only reads.
    expect(await statusOf(firstPress.key)).toBe(401);
    expect(await statusOf(secondPress.key)).toBe(401);
    expect(await statusOf(lastPress.key, '/v1/pets')).toBe(200);
    expect(await statusOf(own.key)).toBe(200);
    const write = await api.fetch(
      '/v1/pets',
      json({ name: 'Rex', photoUrls: [] }, { key: lastPress.key }),
    );
    expect(write.status).toBe(403);
  });
});

describe('what a developer may not do', () => {
  it("another organisation's key is 404 for every operation", async () => {
    const { key, apiKey } = await createKey({ name: 'Mine', mode: 'live' });
    const other = await signInAs(site, await createAccount(api, 'developer'));
    for (const [path, init] of [
      [`/org/keys/${apiKey.id}/usage`, {}],
      [`/org/keys/${apiKey.id}/revoke`, { method: 'POST' }],
      [`/org/keys/${apiKey.id}/roll`, { body: { overlapHours: 0 } }],
    ] as const) {
      const response = await asDeveloper(path, init, other);
      expect(response.status, path).toBe(404);
      expect(await errorBody(response)).toMatchObject({ code: 'not_found', status: 404 });
    }
    expect((await listKeys(other)).map((each) => each.id)).not.toContain(apiKey.id);
    expect(await statusOf(key)).toBe(200);
  });

  it('a staff session gets 403 on /internal/org', async () => {
    const staff = await signInAs(site, await createAccount(api, 'staff'));
    for (const path of ['/org', '/org/keys', '/org/usage/now']) {
      const response = await asDeveloper(path, {}, staff);
      expect(response.status, path).toBe(403);
    }
    const create = await asDeveloper('/org/keys', { body: { name: 'X', mode: 'live' } }, staff);
    expect(create.status).toBe(403);
  });

  it('without the site, the org routes do not exist (404)', async () => {
    const { key } = await createKey({ name: 'Not the site', mode: 'live' });
    const response = await api.fetch('/internal/org/keys', { key });
    expect(response.status).toBe(404);
  });
});

describe('usage', () => {
  it('25 requests show in the hour and the day (2xx), and in the current windows', async () => {
    const { key, apiKey } = await createKey({ name: 'Counted', mode: 'live' });
    for (let index = 0; index < 25; index += 1) {
      expect(await statusOf(key, '/v1/pets')).toBe(200);
    }
    await api.app.get(UsageCounter).flush();

    const response = await asDeveloper(`/org/keys/${apiKey.id}/usage?days=1`);
    expect(response.status).toBe(200);
    const usage = (await response.json()) as TKeyUsage;
    expect(usage.days).toBe(1);
    expect(usage.hourly).toHaveLength(24);
    expect(usage.daily).toHaveLength(1);
    const thisHour = usage.hourly.at(-1);
    expect(thisHour?.counts).toEqual({ '2xx': 25, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0 });
    expect(new Date(thisHour?.start ?? 0).getTime() % 3_600_000).toBe(0);
    expect(usage.daily[0]?.counts['2xx']).toBe(25);
    expect(usage.daily[0]?.start).toMatch(/T00:00:00\.000Z$/);

    const month = (await (await asDeveloper(`/org/keys/${apiKey.id}/usage`)).json()) as TKeyUsage;
    expect(month.days).toBe(30);
    expect(month.daily).toHaveLength(30);
    expect(month.hourly).toHaveLength(720);

    expect((await asDeveloper(`/org/keys/${apiKey.id}/usage?days=31`)).status).toBe(400);

    // The last use, written by the same flush.
    const listed = (await listKeys()).find((each) => each.id === apiKey.id);
    expect(listed?.lastUsedAt).not.toBeNull();

    const now = await asDeveloper('/org/usage/now');
    expect(now.status).toBe(200);
    const { keys } = (await now.json()) as {
      keys: {
        id: string;
        minute: { used: number; limit: number };
        day: { used: number; limit: number };
      }[];
    };
    expect(keys.find((each) => each.id === apiKey.id)).toMatchObject({
      minute: { used: 25, limit: 60 },
      day: { used: 25, limit: 1000 },
    });
  });
});

describe("the organisation's plan", () => {
  it("is every key's plan: a change reaches the keys within the key cache's delay", async () => {
    const other = await signInAs(site, await createAccount(api, 'developer'));
    const { key } = await createKey({ name: 'Upgraded', mode: 'live' }, other);
    const limitOf = async () => {
      const response = await api.fetch('/v1/me', { key });
      await response.arrayBuffer();
      return response.headers.get('x-ratelimit-limit');
    };
    expect(await limitOf()).toBe('60');
    await api.pool.query("UPDATE organizations SET plan = 'pro' WHERE id = $1", [
      other.account.organization?.id,
    ]);
    skippedMs += 6_000;
    expect(await limitOf()).toBe('300');
    const organization = await asDeveloper('/org', {}, other);
    expect(await organization.json()).toMatchObject({
      plan: 'pro',
      limits: { perMinute: 300, perDay: 10_000 },
    });
  });
});

describe('revoking and rolling', () => {
  it('revoke: the key is refused at once in this process, and listed as revoked', async () => {
    const { key, apiKey } = await createKey({ name: 'Leaked', mode: 'live' });
    expect(await statusOf(key)).toBe(200);
    const response = await asDeveloper(`/org/keys/${apiKey.id}/revoke`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { apiKey: TOrgKey }).apiKey.status).toBe('revoked');
    expect(await statusOf(key)).toBe(401);
    // Again: nothing changes.
    expect((await asDeveloper(`/org/keys/${apiKey.id}/revoke`, { method: 'POST' })).status).toBe(
      200,
    );
    const rolled = await asDeveloper(`/org/keys/${apiKey.id}/roll`, { body: { overlapHours: 1 } });
    expect(rolled.status).toBe(400);
    const audit = await api.pool.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE target_type = 'api_key' AND target_id = $1 ORDER BY id",
      [apiKey.id],
    );
    expect(audit.rows.map((row) => row.action)).toEqual(['api_key.created', 'api_key.revoked']);
  });

  it('roll with an overlap: both secrets work, then after the overlap the old one is 401', async () => {
    const { key: oldKey, apiKey } = await createKey({ name: 'Rolled', mode: 'live' });
    expect(await statusOf(oldKey)).toBe(200);
    const response = await asDeveloper(`/org/keys/${apiKey.id}/roll`, {
      body: { overlapHours: 1 },
    });
    expect(response.status).toBe(200);
    const { key: newKey, apiKey: after } = (await response.json()) as TIssuedOrgKey;
    expect(newKey).toMatch(/^pets_live_/);
    expect(newKey).not.toBe(oldKey);
    expect(after.id).toBe(apiKey.id);
    expect(after.start).toBe(newKey.slice(0, 14));
    expect(after.previousSecretExpiresAt).not.toBeNull();
    expect(await statusOf(oldKey)).toBe(200);
    expect(await statusOf(newKey)).toBe(200);

    const refused = await asDeveloper(`/org/keys/${apiKey.id}/roll`, {
      body: { overlapHours: 169 },
    });
    expect(refused.status).toBe(400);

    // Past the overlap (the cache's clocks skip an hour and a minute).
    skippedMs += 61 * 60_000;
    const old = await api.fetch('/v1/me', { key: oldKey });
    expect(old.status).toBe(401);
    expect((await errorBody(old)).message).toMatch(/rolled/);
    expect(await statusOf(newKey)).toBe(200);
    const audit = await api.pool.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE target_type = 'api_key' AND target_id = $1 ORDER BY id",
      [apiKey.id],
    );
    expect(audit.rows.map((row) => row.action)).toEqual(['api_key.created', 'api_key.rolled']);
  });
});
