import { ORDER_LINK_DAYS, type TOrder } from '@pets/contract';
import { signingKey } from '@pets/store/signing-keys.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOrderLink } from '../../links/order-links';
import { json, startTestApi, type TTestApi } from '../../test/api-harness';
import {
  arrivalAt,
  startSmtpServer,
  type TReceivedMail,
  type TTestSmtpServer,
} from '../../test/smtp-server';
import { createPet, placedOrder } from './orders.test-support';

/**
 * The private links to an application, through a real SMTP server: every email to an adopter
 * carries one that opens the application with no reference or address to type, and an adopter
 * who lost them asks for fresh ones by email address.
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let staff: string;
let partner: string;
let stranger: string;
let categoryId: number;

const SITE = 'https://adopt.example';
const LINK = /https:\/\/adopt\.example\/applications\/status\/([0-9a-z._-]+)/gi;
const ADA = { name: 'Ada Lovelace', email: 'ada.links@example.org' };

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({ env: { SMTP_URL: smtp.url, SITE_URL: SITE } });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  partner = await api.createKey({ name: 'Partner' });
  stranger = await api.createKey({ name: 'Another partner' });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

/** The first message to `to` with `subject` received after the first `after`, waited for. */
const arrival = (after: number, to: string, subject: string): Promise<TReceivedMail> =>
  arrivalAt(smtp, after, to, subject);

const tokensIn = (text: string): string[] =>
  [...text.matchAll(LINK)].map((match) => match[1] ?? '');

const byLink = (token: string, key = stranger) =>
  api.fetch('/v1/store/order-links/lookup', json({ token }, { key }));

const askForLinks = (email: string) =>
  api.fetch('/v1/store/order-links', json({ email }, { key: stranger }));

describe('the status link in every email to the adopter', () => {
  it('opens the application for whoever holds it, in the HTML and the plain text alike', async () => {
    const petId = await createPet(api, staff, categoryId, 'Pepper');
    const before = smtp.received.length;
    const order = await placedOrder(api, partner, petId, { adopter: ADA });
    const received = await arrival(before, ADA.email, 'We have your application for Pepper');
    const [token] = tokensIn(received.html);
    expect(token).toMatch(new RegExp(`^${order.id}\\.`));
    expect(tokensIn(received.text)).toContain(token);

    // Another partner's key cannot read the order by id, but can with the link.
    expect((await api.fetch(`/v1/store/orders/${order.id}`, { key: stranger })).status).toBe(404);
    const response = await byLink(token ?? '');
    expect(response.status).toBe(200);
    const read = (await response.json()) as TOrder;
    expect(read).toMatchObject({ id: order.id, status: 'placed', adopter: { email: ADA.email } });

    // Staff emails carry no adopter link.
    const toStaff = await arrival(
      before,
      api.config.store.email,
      `New application A-${order.id} for Pepper`,
    );
    expect(tokensIn(toStaff.html)).toEqual([]);
  });

  it('is one 404 for a forged, an expired and an unknown link, and a 400 for something else', async () => {
    const petId = await createPet(api, staff, categoryId, 'Juniper');
    const order = await placedOrder(api, partner, petId, { adopter: ADA });
    const key = await signingKey(api.pool, 'order-links');
    const valid = signOrderLink(key, order.id, Date.now());
    expect((await byLink(valid)).status).toBe(200);

    const [id, expires, mac = ''] = valid.split('.');
    const forged = `${Number(id) + 1}.${expires}.${mac}`;
    const tampered = `${id}.${expires}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    // The last character carries 2 bits of the MAC and 4 spare ones: another spelling of it is
    // still another token.
    const respelled = `${id}.${expires}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const expired = signOrderLink(
      key,
      order.id,
      Date.now() - (ORDER_LINK_DAYS * 86_400 + 60) * 1000,
    );
    const unknown = signOrderLink(key, 99_999_999, Date.now());
    for (const token of [forged, tampered, respelled, expired, unknown]) {
      const response = await byLink(token);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: 404, code: 'not_found' });
    }
    const malformed = await byLink('A-12');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('email me my application links', () => {
  const GRACE = { name: 'Grace Hopper', email: 'grace.links@example.org' };

  it('sends one email listing every application of the address, each link working', async () => {
    const first = await placedOrder(api, partner, await createPet(api, staff, categoryId, 'Rolo'), {
      adopter: GRACE,
    });
    const second = await placedOrder(
      api,
      stranger,
      await createPet(api, staff, categoryId, 'Mochi'),
      { adopter: GRACE },
    );
    const before = smtp.received.length;

    // Spaces around it are not part of an address: refused, as the document's pattern says.
    const padded = await askForLinks('  Grace.Links@Example.org ');
    expect(padded.status).toBe(400);
    expect(await padded.json()).toMatchObject({ code: 'invalid_request', status: 400 });
    // Typed with capitals: the same address.
    const response = await askForLinks('Grace.Links@Example.org');
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      email: 'Grace.Links@Example.org',
      expiresInDays: ORDER_LINK_DAYS,
    });
    const listing = await arrival(before, GRACE.email, 'Your adoption applications');
    expect(listing.text).toContain(`Mochi (A-${second.id})`);
    expect(listing.text).toContain(`Rolo (A-${first.id})`);
    const tokens = [...new Set(tokensIn(listing.html))];
    expect(tokens).toHaveLength(2);
    const opened = await Promise.all(
      tokens.map(async (token) => ((await (await byLink(token)).json()) as TOrder).id),
    );
    expect(opened.sort()).toEqual([first.id, second.id].sort());
  });

  it('answers the same for an address with no applications, and sends nothing', async () => {
    const before = smtp.received.length;
    const response = await askForLinks('nobody.here@example.org');
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      email: 'nobody.here@example.org',
      expiresInDays: ORDER_LINK_DAYS,
    });
    const rows = await api.prisma.mailMessage.count({
      where: { recipient: 'nobody.here@example.org' },
    });
    expect(rows).toBe(0);
    expect(smtp.received.length).toBe(before);
  });

  it('sends one address at most three such emails an hour, whoever asks', async () => {
    const HEDY = { name: 'Hedy Lamarr', email: 'hedy.links@example.org' };
    await placedOrder(api, partner, await createPet(api, staff, categoryId, 'Tofu'), {
      adopter: HEDY,
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => askForLinks(HEDY.email).then((each) => each.status)),
    );
    expect(answers).toEqual([202, 202, 202, 202, 202, 202]);
    const queued = await api.prisma.mailMessage.count({
      where: { recipient: HEDY.email, template: 'application-links' },
    });
    expect(queued).toBe(3);
  });
});
