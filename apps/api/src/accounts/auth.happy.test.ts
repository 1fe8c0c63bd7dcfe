import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TTestApi } from '../test/api-harness';
import { startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  linkIn,
  signInAs,
  type TTestSite,
  testSite,
} from './accounts.test-support';

/**
 * People sign up, verify, sign in, reset a password and accept an invitation (issue 27), over
 * real HTTP against the real app, its database and a real SMTP server.
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let site: TTestSite;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: { ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url, SITE_URL: 'https://adopt.example' },
  });
  site = await testSite(api);
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

/** The next message to `to`, once it arrived. */
const mailTo = async (to: string, before: number) => {
  await smtp.waitFor(before + 1, 20_000);
  const message = smtp.received.slice(before).find((each) => each.to.includes(to));
  if (!message) {
    throw new Error(`no mail to ${to}`);
  }
  return message;
};

describe('a developer signs up', () => {
  const email = 'dana@example.org';
  const password = 'a long enough passphrase';

  it('gets a verify email whose link verifies the address, then signs in', async () => {
    const before = smtp.received.length;
    const signUp = await site.asVisitor('/internal/auth/sign-up', {
      email,
      password,
      name: 'Dana Developer',
      organizationName: 'Shelter Apps Ltd',
    });
    expect(signUp.status).toBe(201);
    expect(await signUp.json()).toMatchObject({
      account: {
        email,
        role: 'developer',
        emailVerified: false,
        organization: { name: 'Shelter Apps Ltd' },
      },
    });
    const message = await mailTo(email, before);
    expect(message.subject).toContain('Confirm your email');
    expect(message.text).toContain('https://adopt.example/developers/verify/');
    const token = linkIn(message.text, 'verify');

    const verified = await site.asVisitor('/internal/auth/verify', { token });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ account: { email, emailVerified: true } });
    // The link works once: used, it is refused as any used link.
    expect((await site.asVisitor('/internal/auth/verify', { token })).status).toBe(400);

    const signedIn = await signInAs(site, { email, password, role: 'developer' });
    expect(signedIn.credential).toMatch(/^pets_live_/);
    expect(signedIn.account).toMatchObject({ name: 'Dana Developer', role: 'developer' });
    const session = await site.asPerson(signedIn.credential, '/internal/session');
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({
      account: { email, emailVerified: true },
      session: { id: signedIn.session.id, isCurrent: true, method: 'password' },
    });
  });

  it('has the verify email sent again while the address is not confirmed, and not after', async () => {
    const eve = 'erin-dev@example.org';
    const beforeSignUp = smtp.received.length;
    const signUp = await site.asVisitor('/internal/auth/sign-up', {
      email: eve,
      password,
      name: 'Erin Developer',
      organizationName: 'Erin Apps',
    });
    expect(signUp.status).toBe(201);
    const first = await mailTo(eve, beforeSignUp);
    expect(first.subject).toContain('Confirm your email');
    const signedIn = await signInAs(site, { email: eve, password, role: 'developer' });
    const before = smtp.received.length;
    const resend = await site.asPerson(signedIn.credential, '/internal/account/verify/resend', {
      method: 'POST',
    });
    expect(resend.status).toBe(202);
    const again = await mailTo(eve, before);
    const token = linkIn(again.text, 'verify');
    expect((await site.asVisitor('/internal/auth/verify', { token })).status).toBe(200);
    // Confirmed: a resend sends nothing (the same answer).
    const after = smtp.received.length;
    const late = await site.asPerson(signedIn.credential, '/internal/account/verify/resend', {
      method: 'POST',
    });
    expect(late.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.received.slice(after).filter((each) => each.to.includes(eve))).toHaveLength(0);
  });

  it('cannot sign up twice with one address, whatever its case', async () => {
    const again = await site.asVisitor('/internal/auth/sign-up', {
      email: email.toUpperCase(),
      password,
      name: 'Someone',
      organizationName: 'Other',
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('is refused a password that is too short or the email itself', async () => {
    for (const bad of ['short', 'new@example.org']) {
      const response = await site.asVisitor('/internal/auth/sign-up', {
        email: 'new@example.org',
        password: bad,
        name: 'New',
        organizationName: 'New',
      });
      expect(response.status).toBe(400);
    }
  });
});

describe('staff sign in', () => {
  it('gets a credential that works on /v1 with the site key beside it, named after the person', async () => {
    const anna = await createAccount(api, 'staff', { name: 'Anna Ortiz' });
    const signedIn = await signInAs(site, anna);
    const me = await site.asPerson(signedIn.credential, '/v1/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      name: 'Anna Ortiz',
      role: 'staff',
      owner: { type: 'person', name: 'Anna Ortiz' },
      expiresAt: signedIn.session.expiresAt,
    });
    expect(Date.parse(signedIn.session.expiresAt) - Date.now()).toBeGreaterThan(7 * 3600_000);
  });

  it('lists the sessions and signs out of one', async () => {
    const ben = await createAccount(api, 'staff');
    const first = await signInAs(site, ben);
    const second = await signInAs(site, ben);
    const listed = await site.asPerson(second.credential, '/internal/account/sessions');
    const { sessions } = (await listed.json()) as {
      sessions: { id: string; isCurrent: boolean }[];
    };
    expect(sessions.map((session) => [session.id, session.isCurrent])).toEqual([
      [second.session.id, true],
      [first.session.id, false],
    ]);
    const revoked = await site.asPerson(
      second.credential,
      `/internal/account/sessions/${first.session.id}/revoke`,
      { method: 'POST' },
    );
    expect(revoked.status).toBe(204);
    expect((await site.asPerson(first.credential, '/internal/session')).status).toBe(401);
    expect((await site.asPerson(second.credential, '/internal/session')).status).toBe(200);
  });

  it('changes the password: the old one stops working and other sessions end', async () => {
    const cleo = await createAccount(api, 'staff');
    const here = await signInAs(site, cleo);
    const elsewhere = await signInAs(site, cleo);
    const changed = await site.asPerson(here.credential, '/internal/account/password', {
      body: { currentPassword: cleo.password, newPassword: 'a brand new passphrase' },
    });
    expect(changed.status).toBe(204);
    expect((await site.asPerson(here.credential, '/internal/session')).status).toBe(200);
    expect((await site.asPerson(elsewhere.credential, '/internal/session')).status).toBe(401);
    await expect(signInAs(site, cleo)).rejects.toThrow(/401/);
    await signInAs(site, { ...cleo, password: 'a brand new passphrase' });
  });
});

describe('a password reset', () => {
  it('emails a link that sets a new password once, ending every session', async () => {
    const dora = await createAccount(api, 'staff', { email: 'dora@example.org' });
    const session = await signInAs(site, dora);
    const before = smtp.received.length;
    const requested = await site.asVisitor('/internal/auth/reset-request', { email: dora.email });
    expect(requested.status).toBe(202);
    const unknown = await site.asVisitor('/internal/auth/reset-request', {
      email: 'nobody@example.org',
    });
    expect(unknown.status).toBe(202);
    expect(await unknown.json()).toEqual(await requested.json());
    const message = await mailTo(dora.email, before);
    expect(message.text).toContain('https://adopt.example/staff/reset/');
    const token = linkIn(message.text, 'reset');

    const reset = await site.asVisitor('/internal/auth/reset', {
      token,
      password: 'my reset passphrase',
    });
    expect(reset.status).toBe(200);
    expect((await site.asPerson(session.credential, '/internal/session')).status).toBe(401);
    await signInAs(site, { ...dora, password: 'my reset passphrase' });

    // The link is bound to the password it replaced: used once, it is dead.
    const again = await site.asVisitor('/internal/auth/reset', {
      token,
      password: 'another passphrase here',
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'invalid_request' });
  });
});

describe('the first admin `pnpm start` makes, at a single-label domain', () => {
  it('signs in as admin@localhost, and its reset link reaches it and sets a new password', async () => {
    const admin = await createAccount(api, 'admin', { email: 'admin@localhost' });
    const signedIn = await signInAs(site, admin);
    expect(signedIn.account).toMatchObject({ email: 'admin@localhost', role: 'admin' });

    const before = smtp.received.length;
    const requested = await site.asVisitor('/internal/auth/reset-request', {
      email: 'admin@localhost',
    });
    expect(requested.status).toBe(202);
    const message = await mailTo('admin@localhost', before);
    const reset = await site.asVisitor('/internal/auth/reset', {
      token: linkIn(message.text, 'reset'),
      password: 'a new local passphrase',
    });
    expect(reset.status).toBe(200);
    await signInAs(site, { ...admin, password: 'a new local passphrase' });
  });

  it('is refused, like any other, an address that is not one: in the error format', async () => {
    const refused = await site.asVisitor('/internal/auth/sign-in', {
      email: 'admin@@localhost',
      password: 'whatever it is',
      area: 'staff',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_request', status: 400 });
  });
});

describe('an invitation', () => {
  it('is sent by an admin, accepted once with a name and password, and the person signs in', async () => {
    const admin = await createAccount(api, 'admin', { name: 'Ada Admin' });
    const adminSession = await signInAs(site, admin);
    const before = smtp.received.length;
    const invited = await site.asPerson(adminSession.credential, '/internal/team/invitations', {
      body: { email: 'eve@example.org', name: 'Eve', role: 'staff' },
    });
    expect(invited.status).toBe(201);
    expect(await invited.json()).toMatchObject({ account: { status: 'invited', role: 'staff' } });
    const message = await mailTo('eve@example.org', before);
    expect(message.text).toContain('Ada Admin invited you');
    const token = linkIn(message.text, 'invite');

    const accepted = await site.asVisitor('/internal/auth/invite', {
      token,
      name: 'Eve Evans',
      password: 'eve chose this one',
    });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({
      account: { name: 'Eve Evans', status: 'active', emailVerified: true },
    });
    await signInAs(site, {
      email: 'eve@example.org',
      password: 'eve chose this one',
      role: 'staff',
    });

    const again = await site.asVisitor('/internal/auth/invite', {
      token,
      name: 'Mallory',
      password: 'mallory takes over',
    });
    expect(again.status).toBe(400);

    const team = await site.asPerson(adminSession.credential, '/internal/team');
    const { accounts } = (await team.json()) as { accounts: { email: string }[] };
    expect(accounts.map((account) => account.email)).toContain('eve@example.org');
  });

  it('is not sent by an admin whose own address is not confirmed (email_not_confirmed)', async () => {
    const admin = await createAccount(api, 'admin');
    await api.pool.query('update accounts set email_verified_at = null where id = $1', [admin.id]);
    const { credential } = await signInAs(site, admin);
    const refused = await site.asPerson(credential, '/internal/team/invitations', {
      body: { email: 'mallory@example.org', name: 'Mallory', role: 'admin' },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'email_not_confirmed' });
    const queued = await api.pool.query(
      `select 1 from mail_messages where recipient = 'mallory@example.org'`,
    );
    expect(queued.rows).toHaveLength(0);
  });
});
