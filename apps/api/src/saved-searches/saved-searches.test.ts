import { SAVED_SEARCH_LIMITS } from '@pets/contract/site';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TTestSite,
  testSite,
} from '../accounts/accounts.test-support';
import { json, startTestApi, type TTestApi } from '../test/api-harness';
import { startSmtpServer, type TReceivedMail, type TTestSmtpServer } from '../test/smtp-server';

/**
 * Saved searches (issue 28) over real HTTP, against the real app, its database and a real SMTP
 * server: a visitor saves a search (the confirmation email arrives), confirms it, and staff add
 * animals; one alert arrives for a match, with a one-click unsubscribe, and never a second that
 * day; an unconfirmed search and a non-matching animal send nothing.
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let site: TTestSite;
let staffKey: string;
let dogs: number;
let cats: number;

const POLL_MS = 100;
/** Long enough for several rounds of the alerts' worker and the mail worker. */
const QUIET_MS = 2_000;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: {
      ...ACCOUNT_TEST_ENV,
      SMTP_URL: smtp.url,
      SITE_URL: 'https://adopt.example',
      SAVED_SEARCH_POLL_INTERVAL_MS: String(POLL_MS),
    },
  });
  site = await testSite(api);
  staffKey = await api.createKey({ name: 'Front desk', role: 'staff' });
  dogs = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  cats = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The next message to `to` after the first `before` received, once it arrived. */
const mailTo = async (to: string, before: number): Promise<TReceivedMail> => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const message = smtp.received.slice(before).find((each) => each.to.includes(to));
    if (message) {
      return message;
    }
    if (Date.now() > deadline) {
      throw new Error(`no mail to ${to}`);
    }
    await sleep(50);
  }
};

const mailsTo = (to: string, before: number) =>
  smtp.received.slice(before).filter((each) => each.to.includes(to));

const tokenIn = (text: string, purpose: 'confirm' | 'unsubscribe'): string => {
  const match = new RegExp(
    `https://adopt\\.example/saved-searches/${purpose}/([A-Za-z0-9_-]{43})`,
  ).exec(text);
  if (!match?.[1]) {
    throw new Error(`no ${purpose} link in: ${text}`);
  }
  return match[1];
};

const addPet = async (fields: Record<string, unknown>) => {
  const response = await api.fetch('/v1/pets', json(fields, { key: staffKey }));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: number; name: string };
};

const save = (email: string, filter: Record<string, unknown>, visitor?: string) =>
  site.asVisitor('/internal/saved-searches', { email, filter }, visitor);

describe('a saved search', () => {
  const email = 'robin@example.org';
  let unsubscribeToken = '';

  it('sends its confirmation email; unconfirmed, it gets no alert', async () => {
    const before = smtp.received.length;
    // The site may send its browse query as is: the page size and order are not kept.
    const saved = await save(email, { categoryId: dogs, age: 'young', sort: 'name', limit: 12 });
    expect(saved.status, await saved.clone().text()).toBe(202);
    const confirmation = await mailTo(email, before);
    expect(confirmation.subject).toContain('Confirm your animal alerts');
    // It says which search, in the site's words.
    expect(confirmation.text).toContain('when a new animal matches a search (Young dogs).');
    expect(confirmation.text).toMatch(/https:\/\/adopt\.example\/saved-searches\/confirm\//);
    // The confirmation is no list mail: no unsubscribe header.
    expect(confirmation.headers['list-unsubscribe']).toBeUndefined();
    // Nothing of the link is kept in the outbox or the table.
    const token = tokenIn(confirmation.text, 'confirm');
    const { rows } = await api.pool.query(
      `select (select count(*) from mail_messages where data::text like '%' || $1 || '%')::int as mails,
              (select count(*) from saved_searches where confirm_token_hash = $1)::int as rows`,
      [token],
    );
    expect(rows[0]).toEqual({ mails: 0, rows: 0 });

    const afterConfirmation = smtp.received.length;
    await addPet({ name: 'Early', categoryId: dogs, age: 'young' });
    await sleep(QUIET_MS);
    expect(mailsTo(email, afterConfirmation)).toEqual([]);

    const confirmed = await site.asVisitor('/internal/saved-searches/confirm', { token });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ filter: { categoryId: dogs, age: 'young' } });
    // Confirming twice is harmless.
    expect((await site.asVisitor('/internal/saved-searches/confirm', { token })).status).toBe(200);
    // Animals from before the confirmation are not news: still no alert.
    await sleep(QUIET_MS);
    expect(mailsTo(email, afterConfirmation)).toEqual([]);
  });

  it('sends exactly one alert for a new matching animal, naming the search, with a one-click unsubscribe', async () => {
    const before = smtp.received.length;
    const pet = await addPet({ name: 'Biscuit', categoryId: dogs, age: 'young' });
    const alert = await mailTo(email, before);
    // Which search it is for, in words, in the subject and the body.
    expect(alert.subject).toBe('Biscuit matches your search: Young dogs');
    expect(alert.text).toContain('NEW ANIMALS FOR YOUR SEARCH: YOUNG DOGS');
    expect(alert.text).toContain('match the search you saved (Young dogs):');
    expect(alert.text).toContain(`https://adopt.example/pets/${pet.id}`);
    unsubscribeToken = tokenIn(alert.text, 'unsubscribe');
    expect(alert.headers['list-unsubscribe']).toBe(
      `<https://adopt.example/saved-searches/unsubscribe/${unsubscribeToken}/one-click>`,
    );
    expect(alert.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await sleep(QUIET_MS);
    expect(mailsTo(email, before)).toHaveLength(1);
  });

  it('sends no second email the same day, and no email for an animal that does not match', async () => {
    const before = smtp.received.length;
    const later = await addPet({ name: 'Pepper', categoryId: dogs, age: 'young' });
    await addPet({ name: 'Old Tom', categoryId: dogs, age: 'senior' });
    await addPet({ name: 'Mittens', categoryId: cats, age: 'young' });
    await sleep(QUIET_MS);
    expect(mailsTo(email, before)).toEqual([]);

    // A day later (everything so far moved back 25 hours), the next alert lists what waited.
    await api.pool.query(
      `with moved as (update events set created_at = created_at - interval '25 hours')
       update saved_searches set created_at = created_at - interval '25 hours',
         confirmed_at = confirmed_at - interval '25 hours',
         last_alert_at = last_alert_at - interval '25 hours'`,
    );
    const batched = await mailTo(email, before);
    expect(batched.subject).toBe('Pepper matches your search: Young dogs');
    expect(batched.text).toContain(`https://adopt.example/pets/${later.id}`);
    expect(batched.text).not.toContain('Old Tom');
    expect(batched.text).not.toContain('Mittens');
  });

  it('stops on a one-click POST to its unsubscribe link; later animals send nothing', async () => {
    const done = await site.asVisitor('/internal/saved-searches/unsubscribe', {
      token: unsubscribeToken,
    });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ filter: { categoryId: dogs, age: 'young' } });
    // Twice is harmless (a mail client may retry).
    expect(
      (await site.asVisitor('/internal/saved-searches/unsubscribe', { token: unsubscribeToken }))
        .status,
    ).toBe(200);
    await api.pool.query(`update saved_searches set last_alert_at = null where email = $1`, [
      email,
    ]);
    const before = smtp.received.length;
    await addPet({ name: 'Waffles', categoryId: dogs, age: 'young' });
    await sleep(QUIET_MS);
    expect(mailsTo(email, before)).toEqual([]);
  });

  it("is the site's alone: any other key is answered 404", async () => {
    const partner = await api.createKey({ name: 'Partner' });
    const response = await api.fetch(
      '/internal/saved-searches',
      json({ email: 'x@example.org', filter: {} }, { key: partner }),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('refuses a link that is not one of ours with the spec error body', async () => {
    const forged = await site.asVisitor('/internal/saved-searches/unsubscribe', {
      token: 'A'.repeat(43),
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('the limits', () => {
  it(`lets an address save ${SAVED_SEARCH_LIMITS.newPerAddressPerDay} searches a day, then answers 429`, async () => {
    const email = 'busy@example.org';
    for (let index = 0; index < SAVED_SEARCH_LIMITS.newPerAddressPerDay; index += 1) {
      expect((await save(email, { categoryId: cats }, `203.0.113.${20 + index}`)).status).toBe(202);
    }
    // Whatever its case, from another visitor.
    const refused = await save('Busy@Example.org', { categoryId: dogs }, '203.0.113.99');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: expect.stringContaining('Please try again tomorrow'),
    });
  });

  it('refuses a filter listPets would refuse', async () => {
    const refused = await save('fees@example.org', { feeMax: 5000 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('the staff counts', () => {
  it('say how many confirmed searches wait for each filter, never who', async () => {
    const before = smtp.received.length;
    expect(
      (await save('kim@example.org', { categoryId: cats, goodWithChildren: true })).status,
    ).toBe(202);
    const token = tokenIn((await mailTo('kim@example.org', before)).text, 'confirm');
    expect((await site.asVisitor('/internal/saved-searches/confirm', { token })).status).toBe(200);

    const staff = await createAccount(api, 'staff');
    const signedIn = await signInAs(site, staff);
    const answer = await site.asPerson(signedIn.credential, '/internal/saved-searches/waiting');
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toEqual({
      filters: [{ filter: { categoryId: cats, goodWithChildren: true }, searches: 1 }],
      total: 1,
    });
    expect(JSON.stringify(body)).not.toContain('@');

    const developer = await createAccount(api, 'developer');
    const asDeveloper = await signInAs(site, developer);
    expect(
      (await site.asPerson(asDeveloper.credential, '/internal/saved-searches/waiting')).status,
    ).toBe(403);
  });
});
