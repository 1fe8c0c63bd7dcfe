import type { TOrder } from '@pets/contract';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../../jobs/job-queue';
import { json, startTestApi, type TTestApi } from '../../test/api-harness';
import { arrivalAt, startSmtpServer, type TTestSmtpServer } from '../../test/smtp-server';
import { createPet, petOf, placedOrder, placeOrder, transition } from './orders.test-support';

/**
 * APPLICATION_CONFIRMATION=email, through a real SMTP server: an application starts `unconfirmed`,
 * its adopter gets one email with a private link, and it counts (the animal's count, the store's
 * email, the adopter's receipt) only once they confirm it from that link. One left unconfirmed
 * for 24 hours is cancelled by the schedule, and nobody is written to again.
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let staff: string;
let partner: string;
let categoryId: number;

const SITE = 'https://adopt.example';
const STORE = 'store.confirm@kindred.example';
const LINK = /https:\/\/adopt\.example\/applications\/status\/([0-9a-z._-]+)/i;
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: {
      SMTP_URL: smtp.url,
      SITE_URL: SITE,
      STORE_EMAIL: STORE,
      APPLICATION_CONFIRMATION: 'email',
    },
  });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  partner = await api.createKey({ name: 'Partner' });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

const adopter = (name: string) => ({
  name,
  email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.org`,
});

/** The token of the private link in the confirmation email to `email`, waited for. */
const confirmationToken = async (after: number, email: string, petName: string) => {
  const message = await arrivalAt(
    smtp,
    after,
    email,
    `Please confirm your application for ${petName}`,
  );
  const token = LINK.exec(message.html)?.[1];
  expect(token, 'the confirmation email carries a private link').toBeDefined();
  expect(message.text).toContain(token);
  return token ?? '';
};

const confirm = (token: string) =>
  api.fetch('/v1/store/order-links/confirm', json({ token }, { key: partner }));

const orderOf = async (id: number): Promise<TOrder> =>
  (await (await api.fetch(`/v1/store/orders/${id}`, { key: staff })).json()) as TOrder;

/** Every message received after the first `after` to `to`. */
const mailTo = (after: number, to: string) =>
  smtp.received.slice(after).filter((message) => message.to === to);

/** Sends the expiry's job, as its schedule would every ten minutes, through a second client. */
const runExpirySchedule = async () => {
  const boss = new PgBoss({
    connectionString: api.database.url,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.send(QUEUES.expireUnconfirmed, {});
  await boss.stop({ graceful: false });
};

const waitForStatus = async (id: number, status: TOrder['status']) => {
  const deadline = Date.now() + 30_000;
  while ((await orderOf(id)).status !== status) {
    if (Date.now() > deadline) {
      throw new Error(`order ${id} did not become ${status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('an application that waits for its adopter to confirm it by email', () => {
  it('counts only once confirmed from the link of the first email, and then as any other', async () => {
    const petId = await createPet(api, staff, categoryId, 'Juniper');
    const ada = adopter('Ada Confirm');
    const before = smtp.received.length;
    const placed = await placedOrder(api, partner, petId, { adopter: ada });
    expect(placed.status).toBe('unconfirmed');
    expect(placed.history).toEqual([expect.objectContaining({ to: 'unconfirmed' })]);
    // Not yet in review: the public page does not count it, and the store hears nothing.
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(0);
    const token = await confirmationToken(before, ada.email, 'Juniper');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailTo(before, STORE)).toEqual([]);
    expect(mailTo(before, ada.email).map((message) => message.subject)).toEqual([
      'Please confirm your application for Juniper',
    ]);

    // The same address cannot pile up unconfirmed copies for one animal.
    const again = await placeOrder(api, partner, petId, { adopter: ada });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('order_already_open');

    const afterPlacing = smtp.received.length;
    const response = await confirm(token);
    expect(response.status).toBe(200);
    const confirmed = (await response.json()) as TOrder;
    expect(confirmed).toMatchObject({ id: placed.id, status: 'placed' });
    expect(confirmed.history.map((entry) => [entry.from, entry.to])).toEqual([
      [undefined, 'unconfirmed'],
      ['unconfirmed', 'placed'],
    ]);
    // Placed when it was confirmed: the store's digest and the adopter's receipt date from then.
    expect(Date.parse(confirmed.placedAt)).toBeGreaterThan(Date.parse(placed.placedAt));
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(1);
    await arrivalAt(smtp, afterPlacing, ada.email, 'We have your application for Juniper');
    await arrivalAt(smtp, afterPlacing, STORE, `New application A-${placed.id} for Juniper`);

    // Pressed twice: the second changes nothing.
    const twice = await confirm(token);
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { code: string }).code).toBe('order_transition_not_allowed');
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(1);
  });

  it('refuses a link that is not valid with the 404 of every link', async () => {
    const forged = await confirm('1.zzzzzz.AAAAAAAAAAAAAAAAAAAAAA');
    expect(forged.status).toBe(404);
    expect(((await forged.json()) as { code: string }).code).toBe('not_found');
    const malformed = await confirm('not a token');
    expect(malformed.status).toBe(400);
  });

  it('waitlists one confirmed while the animal is on hold, and closes the unconfirmed ones silently when it goes home', async () => {
    const petId = await createPet(api, staff, categoryId, 'Maple');
    const [ada, bo, cy] = [adopter('Ada Maple'), adopter('Bo Maple'), adopter('Cy Maple')];
    const before = smtp.received.length;
    const first = await placedOrder(api, partner, petId, { adopter: ada });
    const second = await placedOrder(api, partner, petId, { adopter: bo });
    const third = await placedOrder(api, partner, petId, { adopter: cy });
    expect((await confirm(await confirmationToken(before, ada.email, 'Maple'))).status).toBe(200);
    expect((await transition(api, staff, first.id, 'approve')).status).toBe(200);
    // Unconfirmed applications are not in review: approving one leaves them as they are.
    expect((await orderOf(second.id)).status).toBe('unconfirmed');

    const beforeLate = smtp.received.length;
    const late = await confirm(await confirmationToken(before, bo.email, 'Maple'));
    expect(late.status).toBe(200);
    expect(((await late.json()) as TOrder).status).toBe('waitlisted');
    await arrivalAt(
      smtp,
      beforeLate,
      bo.email,
      'Your application for Maple: you are on the waiting list',
    );

    const beforeHome = smtp.received.length;
    expect((await transition(api, staff, first.id, 'complete')).status).toBe(200);
    expect(await orderOf(third.id)).toMatchObject({
      status: 'declined',
      declineReason: 'adopted_by_another_family',
    });
    expect(await orderOf(second.id)).toMatchObject({ status: 'declined' });
    await arrivalAt(smtp, beforeHome, bo.email, 'Your application for Maple');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Cy never confirmed: written to once, with the confirmation, and never again.
    expect(mailTo(before, cy.email).map((message) => message.subject)).toEqual([
      'Please confirm your application for Maple',
    ]);
  });

  it('is cancelled by the schedule after 24 hours unconfirmed, and the adopter may apply again', async () => {
    const petId = await createPet(api, staff, categoryId, 'Hazel');
    const [old, fresh] = [adopter('Old Hazel'), adopter('Fresh Hazel')];
    const before = smtp.received.length;
    const stale = await placedOrder(api, partner, petId, { adopter: old });
    const recent = await placedOrder(api, partner, petId, { adopter: fresh });
    await confirmationToken(before, old.email, 'Hazel');
    // 25 hours ago, as far as the database knows; the other one was placed just now.
    await api.prisma.order.update({
      where: { id: BigInt(stale.id) },
      data: { placedAt: new Date(Date.now() - 25 * HOUR_MS) },
    });

    await runExpirySchedule();
    await waitForStatus(stale.id, 'cancelled');
    const expired = await orderOf(stale.id);
    expect(expired.history.at(-1)).toMatchObject({
      from: 'unconfirmed',
      to: 'cancelled',
      by: 'schedule',
    });
    expect((await orderOf(recent.id)).status).toBe('unconfirmed');
    expect((await petOf(api, partner, petId)).applicationsInReview).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailTo(before, old.email).map((message) => message.subject)).toEqual([
      'Please confirm your application for Hazel',
    ]);

    // The link of the expired one no longer confirms anything; a new application is welcome.
    const token = await confirmationToken(before, old.email, 'Hazel');
    expect((await confirm(token)).status).toBe(409);
    expect((await placeOrder(api, partner, petId, { adopter: old })).status).toBe(201);
  });

  it('can be cancelled by the key that placed it, with no email to an address that never confirmed', async () => {
    const petId = await createPet(api, staff, categoryId, 'Clover');
    const dee = adopter('Dee Clover');
    const before = smtp.received.length;
    const placed = await placedOrder(api, partner, petId, { adopter: dee });
    await confirmationToken(before, dee.email, 'Clover');
    const cancelled = await transition(api, partner, placed.id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as TOrder).status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailTo(before, dee.email)).toHaveLength(1);
  });
});
