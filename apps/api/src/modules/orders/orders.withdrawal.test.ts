import type { TError, TOrder, TPet } from '@pets/contract';
import { signingKey } from '@pets/store/signing-keys.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TTestSite, testSite } from '../../accounts/accounts.test-support';
import { signOrderLink } from '../../links/order-links';
import { json, startTestApi, type TTestApi } from '../../test/api-harness';
import { startSmtpServer, type TReceivedMail, type TTestSmtpServer } from '../../test/smtp-server';
import { createPet, petOf, placedOrder, transition } from './orders.test-support';

/**
 * An adopter withdraws their application from the page its private link opens, over real HTTP
 * (the site's own key, as the site calls it) with a real SMTP server: it ends `cancelled`, by
 * `adopter`; an approved one frees the animal and its waiting list is told, as when staff cancel;
 * staff hear of it; the link alone authorises it, and only the store's site may ask.
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let site: TTestSite;
let staff: string;
let partner: string;
let categoryId: number;

const ADA = { name: 'Ada Lovelace', email: 'ada.withdraws@example.org' };
const BO = { name: 'Bo Bramble', email: 'bo.waits@example.org' };
const STORE = 'adoptions@kindred.example';

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: { SMTP_URL: smtp.url, SITE_URL: 'https://adopt.example', STORE_EMAIL: STORE },
  });
  site = await testSite(api);
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  partner = await api.createKey({ name: 'Partner shelter' });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

/** The private link's token of an order, as the emails carry it. */
const linkOf = async (orderId: number): Promise<string> =>
  signOrderLink(await signingKey(api.pool, 'order-links'), orderId, Date.now());

const withdraw = (token: string) => site.asVisitor('/internal/applications/withdraw', { token });

/** Waits for `count` more messages than `before`, as `to: subject` lines, sorted. */
const next = async (before: number, count: number): Promise<TReceivedMail[]> => {
  await smtp.waitFor(before + count);
  // Nothing more than expected arrives.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return smtp.received.slice(before);
};
const lines = (messages: TReceivedMail[]) =>
  messages.map((message) => `${message.to}: ${message.subject}`).sort();

describe('an adopter withdraws their application', () => {
  it('approved: the animal is free again, the waiting list and staff are told, the history says the adopter did it', async () => {
    const petId = await createPet(api, staff, categoryId, 'Pepper');
    const start = smtp.received.length;
    const ada = await placedOrder(api, partner, petId, { adopter: ADA });
    const bo = await placedOrder(api, partner, petId, { adopter: BO });
    expect((await transition(api, staff, ada.id, 'approve')).status).toBe(200);
    // Two arrivals (adopter and staff each), the approval and Bo's place on the waiting list.
    await next(start, 6);

    const before = smtp.received.length;
    const response = await withdraw(await linkOf(ada.id));
    expect(response.status, await response.clone().text()).toBe(200);
    const withdrawn = (await response.json()) as TOrder;
    expect(withdrawn.status).toBe('cancelled');
    expect(withdrawn.history.at(-1)).toMatchObject({
      from: 'approved',
      to: 'cancelled',
      by: 'adopter',
    });
    // The site is not staff: no names of people in what it is answered.
    expect(withdrawn.history.at(-1)).not.toHaveProperty('byName');

    // Staff read who did it; the partner that placed it reads it cancelled, by the adopter.
    const asStaff = (await (
      await api.fetch(`/v1/store/orders/${ada.id}`, { key: staff })
    ).json()) as TOrder;
    expect(asStaff.history.at(-1)).toMatchObject({ by: 'adopter', byName: ADA.name });
    const asPartner = (await (
      await api.fetch(`/v1/store/orders/${ada.id}`, { key: partner })
    ).json()) as TOrder;
    expect(asPartner).toMatchObject({ status: 'cancelled' });
    expect(asPartner.history.at(-1)).toEqual({
      at: withdrawn.history.at(-1)?.at,
      from: 'approved',
      to: 'cancelled',
      by: 'adopter',
    });

    // The waiting list moves as when staff cancel an approval: the animal is available again,
    // Bo still in line, and told.
    const pet: TPet = await petOf(api, staff, petId);
    expect(pet).toMatchObject({ status: 'available', applicationsInReview: 1 });
    const sent = await next(before, 3);
    expect(lines(sent)).toEqual(
      [
        `${ADA.email}: Your application for Pepper is cancelled`,
        `${STORE}: Application A-${ada.id} for Pepper withdrawn by the adopter`,
        `${BO.email}: Pepper is looking for a home again`,
      ].sort(),
    );
    const toStaff = sent.find((message) => message.to === STORE);
    expect(toStaff?.text).toContain(
      `Ada Lovelace withdrew their application (A-${ada.id}) to adopt Pepper from its page. It was approved, so Pepper is available again, and the adopter on the waiting list has been told.`,
    );
    expect(toStaff?.text).toContain(`https://adopt.example/staff/applications/${ada.id}`);
    const boNow = (await (
      await api.fetch(`/v1/store/orders/${bo.id}`, { key: staff })
    ).json()) as TOrder;
    expect(boNow.status).toBe('waitlisted');

    // Withdrawn once: a second press changes nothing, and says so.
    const again = await withdraw(await linkOf(ada.id));
    expect(again.status).toBe(409);
    expect(((await again.json()) as TError).code).toBe('order_transition_not_allowed');
  });

  it('in review: only the application changes, and staff hear of it', async () => {
    const petId = await createPet(api, staff, categoryId, 'Juniper');
    const start = smtp.received.length;
    const ada = await placedOrder(api, partner, petId, { adopter: ADA });
    await next(start, 2);
    const before = smtp.received.length;
    expect((await withdraw(await linkOf(ada.id))).status).toBe(200);
    expect(await petOf(api, staff, petId)).toMatchObject({
      status: 'available',
      applicationsInReview: 0,
    });
    const sent = await next(before, 2);
    expect(lines(sent)).toEqual(
      [
        `${ADA.email}: Your application for Juniper is cancelled`,
        `${STORE}: Application A-${ada.id} for Juniper withdrawn by the adopter`,
      ].sort(),
    );
    expect(sent.find((message) => message.to === STORE)?.text).toContain(
      'It was in review; nothing else changed.',
    );
  });

  it('needs a valid link, and only the store’s own site may ask', async () => {
    const petId = await createPet(api, staff, categoryId, 'Rosie');
    const ada = await placedOrder(api, partner, petId, { adopter: ADA });
    const token = await linkOf(ada.id);
    // One character changed: the same 404 as for a link that never was.
    const forged = await withdraw(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    expect(forged.status).toBe(404);
    expect(((await forged.json()) as TError).code).toBe('not_found');
    // A partner's key (even the one that placed it) never reaches the site's operations.
    const byPartner = await api.fetch(
      '/internal/applications/withdraw',
      json({ token }, { key: partner }),
    );
    expect(byPartner.status).toBe(404);
    // Malformed: refused in words, before anything is looked up.
    const malformed = await withdraw('not a token');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as TError).code).toBe('invalid_request');
    // Nothing changed.
    const still = (await (
      await api.fetch(`/v1/store/orders/${ada.id}`, { key: staff })
    ).json()) as TOrder;
    expect(still.status).toBe('placed');
  });
});
