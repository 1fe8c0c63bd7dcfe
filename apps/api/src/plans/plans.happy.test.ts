import {
  MAX_PLAN_REQUESTS_PER_DAY,
  type TIssuedOrgKey,
  type TOrganization,
  type TPlanRequest,
} from '@pets/contract/site';
import { AccountsRepository } from '@pets/store/accounts.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TSignedIn,
  type TTestSite,
  testSite,
} from '../accounts/accounts.test-support';
import { errorBody, startTestApi, type TTestApi } from '../test/api-harness';
import { startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';

/**
 * Plans over real HTTP (issue 27, §4.5): a developer asks for another plan through the site, an
 * admin approves or declines it in the back office (staff only read it), the developer is emailed
 * (a real SMTP server), and the organisation's keys get the new limits: at once on this instance, within the key cache's 5 s on
 * another instance of the same database (its cache clock skips time instead of waiting).
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let site: TTestSite;
let staff: TSignedIn;
let admin: TSignedIn;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: { ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url, SITE_URL: 'https://adopt.example' },
  });
  site = await testSite(api);
  staff = await signInAs(site, await createAccount(api, 'staff', { name: 'Tom Staff' }));
  admin = await signInAs(site, await createAccount(api, 'admin', { name: 'Anna Ortiz' }));
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

const as = (who: TSignedIn, path: string, body?: unknown) =>
  site.asPerson(who.credential, `/internal${path}`, body === undefined ? {} : { body });

const newDeveloper = async () => {
  const account = await createAccount(api, 'developer');
  return { account, signedIn: await signInAs(site, account) };
};

const createKey = async (developer: TSignedIn): Promise<string> => {
  const response = await as(developer, '/org/keys', { name: 'App', mode: 'live' });
  expect(response.status).toBe(201);
  return ((await response.json()) as TIssuedOrgKey).key;
};

const requestPlan = async (developer: TSignedIn, plan: string, message?: string) => {
  const response = await as(developer, '/org/plan-requests', { plan, message });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { request: TPlanRequest }).request;
};

const limitHeader = async (target: TTestApi, key: string) => {
  const response = await target.fetch('/v1/pets', { key });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return response.headers.get('x-ratelimit-limit');
};

/** The next message to `to`, once it arrived (other tests' messages may come first). */
const mailTo = async (to: string, before: number) => {
  for (let count = before + 1; ; count++) {
    await smtp.waitFor(count, 20_000);
    const message = smtp.received.slice(before).find((each) => each.to.includes(to));
    if (message) {
      return message;
    }
  }
};

describe('a developer asks for Pro and an admin approves', () => {
  it('changes the limit of the keys within the cache delay everywhere, and emails the developer', async () => {
    const { account, signedIn: developer } = await newDeveloper();
    const key = await createKey(developer);
    let otherNow = 0;
    // A second replica of the same deployment: its mail worker may send the decision, so it has
    // the same mail server.
    const other = await startTestApi({
      env: { ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url, SITE_URL: 'https://adopt.example' },
      database: api.database,
      keyCache: { now: () => otherNow },
    });
    try {
      expect(await limitHeader(api, key)).toBe('60');
      expect(await limitHeader(other, key)).toBe('60');

      const request = await requestPlan(developer, 'pro', 'Our app syncs 40 shelters.');
      expect(request).toMatchObject({
        status: 'pending',
        currentPlan: 'free',
        requestedPlan: 'pro',
        message: 'Our app syncs 40 shelters.',
        requestedBy: { name: account.name, email: account.email },
      });
      const organization = (await (await as(developer, '/org')).json()) as TOrganization;
      expect(organization).toMatchObject({ plan: 'free', planRequest: { id: request.id } });

      // The queue lists it for staff.
      const queue = await as(staff, '/plans/requests?status=pending');
      expect(queue.status).toBe(200);
      const { requests } = (await queue.json()) as { requests: TPlanRequest[] };
      expect(requests.map((each) => each.id)).toContain(request.id);

      const before = smtp.received.length;
      const decided = await as(admin, `/plans/requests/${request.id}/decide`, {
        decision: 'approve',
        note: 'Welcome aboard.',
      });
      expect(decided.status, await decided.clone().text()).toBe(200);
      expect(await decided.json()).toMatchObject({
        request: {
          status: 'approved',
          decidedByName: 'Anna Ortiz',
          decisionNote: 'Welcome aboard.',
          organization: { plan: 'pro', limits: { perMinute: 300, perDay: 10_000 } },
        },
      });

      // This instance dropped the keys from its cache; the other reloads them within 5 s.
      expect(await limitHeader(api, key)).toBe('300');
      otherNow += 5_000;
      expect(await limitHeader(other, key)).toBe('300');

      const after = (await (await as(developer, '/org')).json()) as TOrganization;
      expect(after).toMatchObject({
        plan: 'pro',
        limits: { perMinute: 300, perDay: 10_000 },
        planRequest: { id: request.id, status: 'approved' },
      });

      const mail = await mailTo(account.email, before);
      expect(mail.subject).toBe('Your Pro plan is ready');
      expect(mail.text).toContain('is on the Pro plan now');
      expect(mail.text).toContain('300 requests a minute and 10,000 a day');
      expect(mail.text).toContain('Welcome aboard.');
      expect(mail.text).toContain('https://adopt.example/developers/plan');
    } finally {
      await other.close();
    }
  });
});

describe('admins hear of a new request', () => {
  it('emails every active admin (not staff, who do not decide, nor a deactivated admin, nor developers), linking to the queue', async () => {
    const bo = await createAccount(api, 'admin', { name: 'Bo Admin' });
    const former = await createAccount(api, 'admin', { name: 'Former Admin' });
    await new AccountsRepository(api.pool).setStatus(former.id, 'deactivated');
    const { account, signedIn: developer } = await newDeveloper();
    const before = smtp.received.length;

    const request = await requestPlan(developer, 'pro', 'We sync 40 shelters.');

    const toAnna = await mailTo(admin.account.email, before);
    expect(toAnna.subject).toBe(`${request.organization.name} asks for the Pro plan`);
    expect(toAnna.text).toContain('HELLO ANNA ORTIZ');
    expect(toAnna.text).toContain(
      `${account.name} (${account.email}) asked to move ${request.organization.name} from the Free plan to Pro.`,
    );
    expect(toAnna.text).toContain('Their message: We sync 40 shelters.');
    expect(toAnna.text).toContain('https://adopt.example/staff/plans');
    const toBo = await mailTo(bo.email, before);
    expect(toBo.text).toContain('HELLO BO ADMIN');

    // Queued in the request's transaction: the outbox has one row per active admin, and none for
    // staff, the deactivated admin or the developer.
    const queued = await api.pool.query<{ recipient: string }>(
      `select recipient from mail_messages where template = 'plan-request-received' and data->>'organizationName' = $1`,
      [request.organization.name],
    );
    const recipients = queued.rows.map((row) => row.recipient);
    expect(recipients).toContain(admin.account.email);
    expect(recipients).toContain(bo.email);
    expect(recipients).not.toContain(staff.account.email);
    expect(recipients).not.toContain(former.email);
    expect(recipients).not.toContain(account.email);
  });

  it('a refused request (one is waiting already) emails nobody', async () => {
    const { signedIn: developer } = await newDeveloper();
    const first = await requestPlan(developer, 'pro');
    const second = await as(developer, '/org/plan-requests', { plan: 'business' });
    expect(second.status).toBe(409);
    const queued = await api.pool.query<{ plan: string }>(
      `select data->>'requestedPlan' as plan from mail_messages where template = 'plan-request-received' and data->>'organizationName' = $1`,
      [first.organization.name],
    );
    expect(queued.rows.map((row) => row.plan)).not.toContain('business');
    expect(queued.rows.length).toBeGreaterThan(0);
  });

  it(`asking and withdrawing in a loop stops after ${MAX_PLAN_REQUESTS_PER_DAY} requests a day (403), so admins get ${MAX_PLAN_REQUESTS_PER_DAY} emails, not one per loop; other organisations still ask`, async () => {
    const { signedIn: developer } = await newDeveloper();
    let organization = { id: '', name: '' };
    for (let asked = 0; asked < MAX_PLAN_REQUESTS_PER_DAY; asked++) {
      const request = await requestPlan(developer, 'pro');
      organization = request.organization;
      const withdrawn = await as(developer, `/org/plan-requests/${request.id}/withdraw`, {});
      expect(withdrawn.status).toBe(200);
    }
    const refused = await as(developer, '/org/plan-requests', { plan: 'pro' });
    expect(refused.status).toBe(403);
    expect(await errorBody(refused)).toEqual({
      status: 403,
      code: 'forbidden',
      message: `Your organisation has asked for a plan ${MAX_PLAN_REQUESTS_PER_DAY} times in the last 24 hours, the most it may: ask again tomorrow, or write to us.`,
    });
    const queued = await api.pool.query<{ count: number }>(
      `select count(*)::int as count from mail_messages where template = 'plan-request-received' and recipient = $1 and data->>'organizationName' = $2`,
      [admin.account.email, organization.name],
    );
    expect(queued.rows[0]?.count).toBe(MAX_PLAN_REQUESTS_PER_DAY);

    // A day later it may ask again; another organisation never waited.
    await api.pool.query(
      `update plan_change_requests set created_at = created_at - interval '25 hours' where organization_id = $1`,
      [organization.id],
    );
    await requestPlan(developer, 'pro');
    const { signedIn: other } = await newDeveloper();
    await requestPlan(other, 'pro');
  });
});

describe('an address nobody confirmed', () => {
  it('cannot ask for a plan: refused (email_not_confirmed), and staff are emailed nothing in its name', async () => {
    // Anyone can sign up with someone else's address; until its owner opens the link, nothing
    // goes to staff in that name.
    const email = `big-shelter-${Date.now()}@example.org`;
    const signUp = await site.asVisitor('/internal/auth/sign-up', {
      email,
      password: 'a long enough passphrase',
      name: 'Big Shelter',
      organizationName: 'Big Shelter Ltd',
    });
    expect(signUp.status).toBe(201);
    const unconfirmed = await signInAs(site, {
      email,
      password: 'a long enough passphrase',
      role: 'developer',
    });
    const before = smtp.received.length;

    const refused = await as(unconfirmed, '/org/plan-requests', {
      plan: 'enterprise',
      message: 'Please upgrade us today, our CEO insists.',
    });
    expect(await errorBody(refused)).toEqual({
      status: 403,
      code: 'email_not_confirmed',
      message:
        'Confirm your email address before asking for another plan: open the link in the email we sent you, or ask for a new one.',
    });
    // Keys are refused with the same code, and nothing is in the outbox for staff.
    const key = await as(unconfirmed, '/org/keys', { name: 'App', mode: 'test' });
    expect(await errorBody(key)).toMatchObject({ status: 403, code: 'email_not_confirmed' });
    const queued = await api.pool.query(
      `select 1 from mail_messages where template = 'plan-request-received' and data->>'organizationName' = 'Big Shelter Ltd'`,
    );
    expect(queued.rows).toHaveLength(0);

    // A confirmed developer's request goes out after it: once staff have that one, the SMTP
    // server has everything the refused request could have sent, and nothing of it came.
    const { signedIn: confirmed } = await newDeveloper();
    const request = await requestPlan(confirmed, 'pro');
    const subject = `${request.organization.name} asks for the Pro plan`;
    for (let count = before + 1; ; count++) {
      await smtp.waitFor(count, 20_000);
      if (smtp.received.slice(before).some((message) => message.subject === subject)) {
        break;
      }
    }
    expect(
      smtp.received.slice(before).filter((message) => message.subject.includes('Big Shelter')),
    ).toEqual([]);
    const pending = (await (await as(staff, '/plans/requests?status=pending')).json()) as {
      requests: TPlanRequest[];
    };
    expect(pending.requests.map((each) => each.organization.name)).not.toContain('Big Shelter Ltd');
  });

  it('is said so to staff where a request shows its requester', async () => {
    const { account, signedIn: developer } = await newDeveloper();
    const request = await requestPlan(developer, 'pro');
    expect(request.requestedBy).toMatchObject({ email: account.email, emailConfirmed: true });
    // An address that is no longer confirmed (as before confirmation was required to ask).
    await api.pool.query('update accounts set email_verified_at = null where id = $1', [
      account.id,
    ]);
    const pending = (await (await as(staff, '/plans/requests?status=pending')).json()) as {
      requests: TPlanRequest[];
    };
    expect(pending.requests.find((each) => each.id === request.id)?.requestedBy).toMatchObject({
      email: account.email,
      emailConfirmed: false,
    });
  });
});

describe('Enterprise', () => {
  it('needs rpm and rpd to approve (400 in the contract’s words), then the keys get them', async () => {
    const { signedIn: developer } = await newDeveloper();
    const key = await createKey(developer);
    const request = await requestPlan(developer, 'enterprise');

    const without = await as(admin, `/plans/requests/${request.id}/decide`, {
      decision: 'approve',
    });
    expect(without.status).toBe(400);
    expect(await errorBody(without)).toMatchObject({
      code: 'invalid_request',
      message:
        'rpm: enterprise organisations need both custom limits: rpm (per minute) and rpd (per day)',
    });
    const backwards = await as(admin, `/plans/requests/${request.id}/decide`, {
      decision: 'approve',
      rpm: 5000,
      rpd: 100,
    });
    expect(backwards.status).toBe(400);
    expect((await errorBody(backwards)).message).toBe('rpd: rpd must be at least rpm');

    const approved = await as(admin, `/plans/requests/${request.id}/decide`, {
      decision: 'approve',
      rpm: 2500,
      rpd: 2_000_000,
    });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      request: {
        status: 'approved',
        limits: { perMinute: 2500, perDay: 2_000_000 },
        organization: { plan: 'enterprise', limits: { perMinute: 2500, perDay: 2_000_000 } },
      },
    });
    expect(await limitHeader(api, key)).toBe('2500');

    // An admin sets the organisation's limits again later.
    const organizationId = request.organization.id;
    const set = await as(admin, `/plans/organizations/${organizationId}/limits`, {
      rpm: 4000,
      rpd: 3_000_000,
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      organization: { plan: 'enterprise', limits: { perMinute: 4000, perDay: 3_000_000 } },
    });
    expect(await limitHeader(api, key)).toBe('4000');
  });

  it('limits cannot be set on an organisation of a fixed plan', async () => {
    const { signedIn: developer } = await newDeveloper();
    const request = await requestPlan(developer, 'business');
    const set = await as(admin, `/plans/organizations/${request.organization.id}/limits`, {
      rpm: 10,
      rpd: 100,
    });
    expect(set.status).toBe(400);
    expect((await errorBody(set)).message).toBe(
      'rpm: custom limits (rpm, rpd) are for enterprise organisations only; the free plan has fixed limits',
    );
  });
});

describe('declining, withdrawing, one at a time', () => {
  it('a decline keeps the plan and sends the note', async () => {
    const { account, signedIn: developer } = await newDeveloper();
    const key = await createKey(developer);
    const request = await requestPlan(developer, 'business');
    const before = smtp.received.length;
    const declined = await as(admin, `/plans/requests/${request.id}/decide`, {
      decision: 'decline',
      note: 'Pro covers your traffic: ask again when you need more.',
    });
    expect(declined.status).toBe(200);
    expect(await declined.json()).toMatchObject({
      request: {
        status: 'declined',
        decisionNote: 'Pro covers your traffic: ask again when you need more.',
        organization: { plan: 'free' },
      },
    });
    expect(await limitHeader(api, key)).toBe('60');
    const mail = await mailTo(account.email, before);
    expect(mail.subject).toBe('About your request for the Business plan');
    expect(mail.text).toContain('Pro covers your traffic: ask again when you need more.');

    // Decided once only.
    const again = await as(admin, `/plans/requests/${request.id}/decide`, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect((await errorBody(again)).code).toBe('plan_request_conflict');
  });

  it('refuses a second pending request (409) until the first is withdrawn', async () => {
    const { signedIn: developer } = await newDeveloper();
    const first = await requestPlan(developer, 'pro');
    const second = await as(developer, '/org/plan-requests', { plan: 'business' });
    expect(second.status).toBe(409);
    expect(await errorBody(second)).toMatchObject({
      code: 'plan_request_conflict',
      message:
        'Your organisation has a plan request waiting already: withdraw it first, or wait for our answer.',
    });
    const withdrawn = await as(developer, `/org/plan-requests/${first.id}/withdraw`, {});
    expect(withdrawn.status).toBe(200);
    expect(await withdrawn.json()).toMatchObject({ request: { status: 'withdrawn' } });
    await requestPlan(developer, 'business');
    // The plan it is on already is no change.
    const { signedIn: other } = await newDeveloper();
    const same = await as(other, '/org/plan-requests', { plan: 'free' });
    expect(same.status).toBe(400);
  });

  it('another organisation cannot withdraw it', async () => {
    const { signedIn: developer } = await newDeveloper();
    const request = await requestPlan(developer, 'pro');
    const { signedIn: stranger } = await newDeveloper();
    const response = await as(stranger, `/org/plan-requests/${request.id}/withdraw`, {});
    expect(response.status).toBe(404);
  });
});

describe('who may decide', () => {
  it('only an admin: a developer and a staff member are refused (403 forbidden), staff still read the queue', async () => {
    const { signedIn: developer } = await newDeveloper();
    const request = await requestPlan(developer, 'pro');
    const byDeveloper = await as(developer, `/plans/requests/${request.id}/decide`, {
      decision: 'approve',
    });
    expect(byDeveloper.status).toBe(403);
    expect((await as(developer, '/plans/requests')).status).toBe(403);
    // A partner key does not even see the operation.
    const partner = await api.fetch('/internal/plans/requests');
    expect(partner.status).toBe(404);

    // Staff read the requests, but neither decide nor set an organisation's limits.
    const listed = await as(staff, '/plans/requests?status=pending');
    expect(listed.status).toBe(200);
    expect(
      ((await listed.json()) as { requests: TPlanRequest[] }).requests.map((each) => each.id),
    ).toContain(request.id);
    const byStaff = await as(staff, `/plans/requests/${request.id}/decide`, {
      decision: 'approve',
    });
    expect(byStaff.status).toBe(403);
    expect(await errorBody(byStaff)).toEqual({
      status: 403,
      code: 'forbidden',
      message: 'This is for admin accounts only.',
    });
    const limits = await as(staff, `/plans/organizations/${request.organization.id}/limits`, {
      rpm: 10,
      rpd: 100,
    });
    expect(limits.status).toBe(403);
    expect((await errorBody(limits)).code).toBe('forbidden');
    const pending = (await (await as(staff, '/plans/requests?status=pending')).json()) as {
      requests: TPlanRequest[];
    };
    expect(pending.requests.find((each) => each.id === request.id)?.status).toBe('pending');

    const byAdmin = await as(admin, `/plans/requests/${request.id}/decide`, {
      decision: 'decline',
    });
    expect(byAdmin.status).toBe(200);
  });
});
