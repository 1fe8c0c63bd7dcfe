import type { TOrder } from '@pets/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  linkIn,
  signInAs,
  type TTestSite,
  testSite,
} from '../accounts/accounts.test-support';
import { createPet, placedOrder } from '../modules/orders/orders.test-support';
import { json, startTestApi, type TTestApi } from '../test/api-harness';
import { arrivalAt, startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';

/**
 * Every link that works once (a password reset, an invitation, an email verification, an
 * application's confirmation) used by several requests at the same moment: exactly one of them
 * wins, the others are told the link is used, and what the link does happens once. Over real HTTP
 * against the real app, its database and a real SMTP server (docs/decisions.md, "Single-use links
 * are consumed by the statement that uses them").
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let site: TTestSite;
let staffKey: string;
let partnerKey: string;
let categoryId: number;

const SITE = 'https://adopt.example';
const STATUS_LINK = /https:\/\/adopt\.example\/applications\/status\/([0-9a-z._-]+)/i;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: {
      ...ACCOUNT_TEST_ENV,
      // Ten passwords hashed at once: the race is decided by the database, not the hashing cap.
      PASSWORD_HASH_CONCURRENCY: '16',
      SMTP_URL: smtp.url,
      SITE_URL: SITE,
      APPLICATION_CONFIRMATION: 'email',
    },
  });
  site = await testSite(api);
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  staffKey = await api.createKey({ name: 'Front desk', role: 'staff' });
  partnerKey = await api.createKey({ name: 'Partner' });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

let visitor = 0;
/** A visitor address of its own for each use: no per-visitor limit takes part in the race. */
const nextVisitor = () => {
  visitor += 1;
  return `198.51.100.${visitor % 250}`;
};

/** The first email to `to` whose subject starts with `subject`, after the first `after`. */
const mailTo = async (after: number, to: string, subject: string) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const message = smtp.received
      .slice(after)
      .find((each) => each.to.includes(to) && each.subject.startsWith(subject));
    if (message) {
      return message;
    }
    if (Date.now() > deadline) {
      throw new Error(`no "${subject}" email to ${to}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** `count` uses sent at the same moment; their statuses and bodies. */
const race = async (count: number, use: (index: number) => Promise<Response>) =>
  Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await use(index);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }),
  );

const winnersOf = (answers: { status: number }[]) =>
  answers.flatMap((answer, index) => (answer.status === 200 ? [index] : []));

const auditCount = async (action: string, targetId: string) =>
  Number(
    (
      await api.pool.query<{ count: string }>(
        'SELECT count(*)::text AS count FROM audit_log WHERE action = $1 AND target_id = $2',
        [action, targetId],
      )
    ).rows[0]?.count,
  );

describe.each([2, 10])('%i uses of one link at the same moment', (count) => {
  it('a password reset link sets one password; the others are told the link is used', async () => {
    const person = await createAccount(api, 'staff');
    const before = smtp.received.length;
    await site.asVisitor('/internal/auth/reset-request', { email: person.email }, nextVisitor());
    const token = linkIn((await mailTo(before, person.email, 'Reset your')).text, 'reset');

    const passwords = Array.from({ length: count }, (_, index) => `reset race passphrase ${index}`);
    const answers = await race(count, (index) =>
      site.asVisitor('/internal/auth/reset', { token, password: passwords[index] }, nextVisitor()),
    );
    const winners = winnersOf(answers);
    expect(winners, 'exactly one reset wins').toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    }
    // The winner's password signs in; none of the losers' does.
    const winner = passwords[winners[0] as number] as string;
    await signInAs(site, { ...person, password: winner });
    for (const loser of passwords.filter((each) => each !== winner).slice(0, 2)) {
      await expect(signInAs(site, { ...person, password: loser })).rejects.toThrow(/401/);
    }
    expect(await auditCount('account.password_reset', person.id)).toBe(1);
  });

  it('an invitation is accepted once, with one name and password', async () => {
    const admin = await createAccount(api, 'admin');
    const { credential } = await signInAs(site, admin);
    const email = `invited-${count}-${Date.now()}@example.org`;
    const before = smtp.received.length;
    const invited = await site.asPerson(credential, '/internal/team/invitations', {
      body: { email, name: 'Invited', role: 'staff' },
    });
    expect(invited.status).toBe(201);
    const { account } = (await invited.json()) as { account: { id: string } };
    const token = linkIn((await mailTo(before, email, 'You are invited')).text, 'invite');

    const answers = await race(count, (index) =>
      site.asVisitor(
        '/internal/auth/invite',
        { token, name: `Taker ${index}`, password: `invite race passphrase ${index}` },
        nextVisitor(),
      ),
    );
    const winners = winnersOf(answers);
    expect(winners, 'exactly one acceptance wins').toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    }
    const index = winners[0] as number;
    expect(answers[index]?.body).toMatchObject({ account: { name: `Taker ${index}` } });
    await signInAs(site, { email, password: `invite race passphrase ${index}`, role: 'staff' });
    expect(await auditCount('account.invitation_accepted', account.id)).toBe(1);
  });

  it('an email verification link confirms the address once', async () => {
    const email = `verify-${count}-${Date.now()}@example.org`;
    const before = smtp.received.length;
    const signUp = await site.asVisitor(
      '/internal/auth/sign-up',
      { email, password: 'a long enough passphrase', name: 'Vera', organizationName: 'Vera Ltd' },
      nextVisitor(),
    );
    expect(signUp.status).toBe(201);
    const token = linkIn((await mailTo(before, email, 'Confirm your email')).text, 'verify');

    const answers = await race(count, () =>
      site.asVisitor('/internal/auth/verify', { token }, nextVisitor()),
    );
    expect(winnersOf(answers), 'exactly one verification wins').toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    }
    // Used, the link stays used.
    expect((await site.asVisitor('/internal/auth/verify', { token }, nextVisitor())).status).toBe(
      400,
    );
  });

  it("an application's confirmation places it once", async () => {
    const petName = `Racer ${count}`;
    const petId = await createPet(api, staffKey, categoryId, petName);
    const adopter = { name: 'Ada Race', email: `ada.race.${count}@example.org` };
    const before = smtp.received.length;
    const order = await placedOrder(api, partnerKey, petId, { adopter });
    expect(order.status).toBe('unconfirmed');
    const message = await arrivalAt(
      smtp,
      before,
      adopter.email,
      `Please confirm your application for ${petName}`,
    );
    const token = STATUS_LINK.exec(message.html)?.[1] ?? '';

    const answers = await race(count, () =>
      api.fetch('/v1/store/order-links/confirm', json({ token }, { key: partnerKey })),
    );
    expect(winnersOf(answers), 'exactly one confirmation wins').toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer).toMatchObject({
        status: 409,
        body: { code: 'order_transition_not_allowed' },
      });
    }
    const confirmed = (await (
      await api.fetch(`/v1/store/orders/${order.id}`, { key: staffKey })
    ).json()) as TOrder;
    expect(confirmed.status).toBe('placed');
    expect(confirmed.history.filter((step) => step.to === 'placed')).toHaveLength(1);
  });
});
