import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountLinks } from '../links/account-links';
import { startTestApi, type TTestApi } from '../test/api-harness';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TTestSite,
  testSite,
} from './accounts.test-support';

/**
 * What a person's session credential cannot do (issue 27): work without the site beside it,
 * reach /v1 as a developer, outlive its sign-out, idle timeout, absolute end or a deactivation;
 * and what a stranger learns from the site-only surface: nothing (404).
 */

let api: TTestApi;
let site: TTestSite;
let now = 0;

beforeAll(async () => {
  api = await startTestApi({
    env: ACCOUNT_TEST_ENV,
    keyCache: { now: () => now },
  });
  site = await testSite(api);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

const errorOf = async (response: Response) => ({
  status: response.status,
  ...((await response.json()) as { code: string }),
});

describe('a session credential', () => {
  it('is refused without the site key beside it, even with a visitor address', async () => {
    const staff = await createAccount(api, 'staff');
    const { credential } = await signInAs(site, staff);
    expect((await site.asPerson(credential, '/v1/me')).status).toBe(200);
    const alone = await api.fetch('/v1/me', { key: credential });
    expect(alone.status).toBe(401);
    expect(((await alone.json()) as { message: string }).message).toContain("store's site");
    const withVisitor = await api.fetch('/v1/me', {
      key: credential,
      headers: { 'Pets-Visitor-IP': '198.51.100.7' },
    });
    expect(withVisitor.status).toBe(401);
    // A partner key in the site key's place vouches for nothing.
    const partner = await api.createKey({ name: 'Partner' });
    const vouchedByPartner = await api.fetch('/v1/me', {
      key: credential,
      headers: { 'Pets-First-Party-Key': partner },
    });
    expect(vouchedByPartner.status).toBe(401);
  });

  it('of a developer is for the portal only: /v1 answers 403', async () => {
    const developer = await createAccount(api, 'developer');
    const { credential } = await signInAs(site, developer);
    expect(await errorOf(await site.asPerson(credential, '/v1/pets'))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect((await site.asPerson(credential, '/internal/session')).status).toBe(200);
  });

  it('of staff may not use the admins’ operations (403)', async () => {
    const staff = await createAccount(api, 'staff');
    const { credential } = await signInAs(site, staff);
    expect((await site.asPerson(credential, '/internal/team')).status).toBe(403);
  });

  it('stops working at once after sign-out, in the process that signed it out', async () => {
    const staff = await createAccount(api, 'staff');
    const { credential } = await signInAs(site, staff);
    expect((await site.asPerson(credential, '/v1/me')).status).toBe(200);
    const out = await site.asPerson(credential, '/internal/session/sign-out', { method: 'POST' });
    expect(out.status).toBe(204);
    expect((await site.asPerson(credential, '/v1/me')).status).toBe(401);
    expect((await site.asPerson(credential, '/internal/session')).status).toBe(401);
  });

  it('is refused by another instance on the same database within the key cache’s 5 seconds', async () => {
    let otherNow = 0;
    const other = await startTestApi({
      env: ACCOUNT_TEST_ENV,
      database: api.database,
      keyCache: { now: () => otherNow },
    });
    try {
      const staff = await createAccount(api, 'staff');
      const { credential } = await signInAs(site, staff);
      const onOther = (path: string) =>
        other.fetch(path, {
          key: credential,
          headers: { 'Pets-First-Party-Key': site.key, 'Pets-Visitor-IP': '203.0.113.10' },
        });
      expect((await onOther('/v1/me')).status).toBe(200);
      await site.asPerson(credential, '/internal/session/sign-out', { method: 'POST' });
      otherNow += 5_000;
      expect((await onOther('/v1/me')).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('ends after its idle timeout, and a use before it keeps it alive', async () => {
    const staff = await createAccount(api, 'staff');
    const { credential, session } = await signInAs(site, staff, { idleSeconds: 2 });
    expect(session.idleSeconds).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await site.asPerson(credential, '/v1/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await site.asPerson(credential, '/v1/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    now += 5_000;
    const idle = await site.asPerson(credential, '/internal/session');
    expect(idle.status).toBe(401);
    expect(((await idle.json()) as { message: string }).message).toContain('unused');
  });

  it("stops with its person's deactivation, and the person cannot sign in", async () => {
    const admin = await createAccount(api, 'admin');
    const adminSession = await signInAs(site, admin);
    const staff = await createAccount(api, 'staff');
    const { credential } = await signInAs(site, staff);
    const deactivated = await site.asPerson(
      adminSession.credential,
      `/internal/team/${staff.id}/deactivate`,
      { method: 'POST' },
    );
    expect(deactivated.status).toBe(200);
    expect((await site.asPerson(credential, '/v1/me')).status).toBe(401);
    await expect(signInAs(site, staff)).rejects.toThrow(/403/);
    // Reactivated, the person signs in again (the old session stays ended).
    await site.asPerson(adminSession.credential, `/internal/team/${staff.id}/reactivate`, {
      method: 'POST',
    });
    now += 5_000;
    expect((await site.asPerson(credential, '/v1/me')).status).toBe(401);
    await signInAs(site, staff);
  });

  it('an admin cannot demote or deactivate themself, so an active admin always remains', async () => {
    const fresh = await startTestApi({ env: ACCOUNT_TEST_ENV });
    try {
      const freshSite = await testSite(fresh);
      const only = await createAccount(fresh, 'admin');
      const other = await createAccount(fresh, 'admin');
      const session = await signInAs(freshSite, only);
      const self = await freshSite.asPerson(session.credential, `/internal/team/${only.id}/role`, {
        body: { role: 'staff' },
      });
      expect(self.status).toBe(403);
      // Demoting the other admin leaves one: allowed; deactivating that one then would leave none.
      const demoted = await freshSite.asPerson(
        session.credential,
        `/internal/team/${other.id}/role`,
        { body: { role: 'staff' } },
      );
      expect(demoted.status).toBe(200);
      const audit = await fresh.pool.query(
        `select action, actor_name as "actorName" from audit_log where target_id = $1`,
        [other.id],
      );
      expect(audit.rows).toEqual([{ action: 'account.role_changed', actorName: only.name }]);
    } finally {
      await fresh.close();
    }
  });
});

describe('the site-only surface', () => {
  it('is a 404 to a partner key, to no key, and to a session credential without the site', async () => {
    const partner = await api.createKey({ name: 'Partner' });
    const staff = await createAccount(api, 'staff');
    const { credential } = await signInAs(site, staff);
    for (const [key, path] of [
      [partner, '/internal/session'],
      [partner, '/internal/team'],
      [null, '/internal/session'],
      [credential, '/internal/session'],
    ] as const) {
      expect(await errorOf(await api.fetch(path, { key }))).toMatchObject({
        status: 404,
        code: 'not_found',
      });
    }
    const signIn = await api.fetch('/internal/auth/sign-in', {
      key: partner,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: staff.email, password: staff.password, area: 'staff' }),
    });
    expect(signIn.status).toBe(404);
    // A session credential in the site key's place is no site either.
    const asSite = await api.fetch('/internal/auth/reset-request', {
      key: credential,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Pets-First-Party-Key': site.key },
      body: JSON.stringify({ email: staff.email }),
    });
    expect(asSite.status).toBe(404);
  });
});

describe('signing in', () => {
  it('answers an unknown email and a wrong password alike, in about the same time', async () => {
    const staff = await createAccount(api, 'staff');
    const attempt = async (email: string) => {
      const started = performance.now();
      const response = await site.asVisitor(
        '/internal/auth/sign-in',
        { email, password: 'not the password', area: 'staff' },
        '198.51.100.20',
      );
      return { elapsed: performance.now() - started, body: await errorOf(response) };
    };
    const unknown = await attempt('nobody-at-all@example.org');
    const wrong = await attempt(staff.email);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toMatchObject({ status: 401, code: 'unauthorized' });
    // Both ran one argon2 verification: a loose bound, one run each, on a busy machine.
    expect(Math.abs(unknown.elapsed - wrong.elapsed)).toBeLessThan(
      Math.max(150, 2 * Math.min(unknown.elapsed, wrong.elapsed)),
    );
  });

  it('refuses a developer at the back office and staff at the portal', async () => {
    const developer = await createAccount(api, 'developer');
    const wrongArea = await site.asVisitor('/internal/auth/sign-in', {
      email: developer.email,
      password: developer.password,
      area: 'staff',
    });
    expect(wrongArea.status).toBe(403);
  });
});

describe('account links', () => {
  it('a token signed for another purpose is refused', async () => {
    const developer = await createAccount(api, 'developer');
    // Not confirmed yet, so that the verify link has something to do (it works once).
    await api.pool.query('update accounts set email_verified_at = null where id = $1', [
      developer.id,
    ]);
    const sign = await new AccountLinks(api.pool).signer();
    const verifyToken = sign('verify', developer.id, developer.email.toLowerCase());
    const asReset = await site.asVisitor('/internal/auth/reset', {
      token: verifyToken,
      password: 'a new passphrase here',
    });
    expect(asReset.status).toBe(400);
    const asInvite = await site.asVisitor('/internal/auth/invite', {
      token: verifyToken,
      name: 'X',
      password: 'a new passphrase here',
    });
    expect(asInvite.status).toBe(400);
    // It is a good token for its own purpose.
    expect((await site.asVisitor('/internal/auth/verify', { token: verifyToken })).status).toBe(
      200,
    );
  });
});

describe('with a short absolute lifetime and one hashing slot', () => {
  let short: TTestApi;
  let shortSite: TTestSite;

  beforeAll(async () => {
    short = await startTestApi({
      env: {
        ...ACCOUNT_TEST_ENV,
        SESSION_ABSOLUTE_SECONDS_STAFF: '2',
        PASSWORD_HASH_CONCURRENCY: '1',
      },
    });
    shortSite = await testSite(short);
  }, 60_000);

  afterAll(async () => {
    await short?.close();
  });

  it('a session ends at its absolute end, however much it is used', async () => {
    const staff = await createAccount(short, 'staff');
    const { credential, session } = await signInAs(shortSite, staff);
    expect(Date.parse(session.expiresAt) - Date.now()).toBeLessThanOrEqual(2_000);
    expect((await shortSite.asPerson(credential, '/v1/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const expired = await shortSite.asPerson(credential, '/v1/me');
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { message: string }).message).toContain('expired');
  });

  it('sign-ins past the hashing cap are told to come back (503, Retry-After)', async () => {
    const staff = await createAccount(short, 'staff');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        shortSite.asVisitor('/internal/auth/sign-in', {
          email: staff.email,
          password: staff.password,
          area: 'staff',
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    const busy = answers.find((answer) => answer.status === 503);
    expect(busy?.headers.get('retry-after')).toBe('1');
    expect(await busy?.json()).toMatchObject({ code: 'service_unavailable' });
  });
});
