import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApi, type TTestApi } from '../../test/api-harness';
import { startSmtpServer, type TReceivedMail, type TTestSmtpServer } from '../../test/smtp-server';
import { createPet, placedOrder, transition } from './orders.test-support';

/**
 * Everyone hears back by email, through a real SMTP server: each adopter as their application
 * moves, staff of each new one, and the waiting list when an approval falls through. The messages
 * go out from the outbox written in each change's own transaction (order-mail.ts).
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let staff: string;
let partner: string;
let categoryId: number;

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org' };
const GRACE = { name: 'Grace Hopper', email: 'grace@example.org' };
const STORE = 'adoptions@kindred.example';

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: { SMTP_URL: smtp.url, SITE_URL: 'https://adopt.example', STORE_EMAIL: STORE },
  });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  partner = await api.createKey({ name: 'Partner' });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

/** Waits for `count` more messages than `before`, and returns them as `to: subject` lines, sorted. */
const next = async (before: number, count: number): Promise<string[]> => {
  await smtp.waitFor(before + count);
  // Nothing more than expected arrives.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return smtp.received
    .slice(before)
    .map((message: TReceivedMail) => `${message.to}: ${message.subject}`)
    .sort();
};

describe('email as applications move', () => {
  it('tells both adopters and staff, the waitlisted one when the approval falls through, and everyone at the end', async () => {
    const petId = await createPet(api, staff, categoryId, 'Biscuit');
    let before = smtp.received.length;
    const ada = await placedOrder(api, partner, petId, { adopter: ADA });
    const grace = await placedOrder(api, partner, petId, { adopter: GRACE });
    expect(await next(before, 4)).toEqual([
      'ada@example.org: We have your application for Biscuit',
      `${STORE}: New application A-${ada.id} for Biscuit`,
      `${STORE}: New application A-${grace.id} for Biscuit`,
      'grace@example.org: We have your application for Biscuit',
    ]);
    const staffMessage = smtp.received.find((each) => each.subject.includes(`A-${ada.id}`));
    expect(staffMessage?.html).toContain(
      `href="https://adopt.example/staff/applications/${ada.id}"`,
    );

    before = smtp.received.length;
    expect((await transition(api, staff, ada.id, 'approve')).status).toBe(200);
    expect(await next(before, 2)).toEqual([
      'ada@example.org: Good news: Biscuit can go home with you',
      'grace@example.org: Your application for Biscuit: you are on the waiting list',
    ]);

    before = smtp.received.length;
    expect((await transition(api, partner, ada.id, 'cancel')).status).toBe(200);
    expect(await next(before, 2)).toEqual([
      'ada@example.org: Your application for Biscuit is cancelled',
      'grace@example.org: Biscuit is looking for a home again',
    ]);

    before = smtp.received.length;
    expect((await transition(api, staff, grace.id, 'approve')).status).toBe(200);
    expect((await transition(api, staff, grace.id, 'complete')).status).toBe(200);
    expect(await next(before, 2)).toEqual([
      'grace@example.org: Good news: Biscuit can go home with you',
      'grace@example.org: Welcome home, Biscuit',
    ]);
  }, 60_000);

  it('gives a declined adopter the reason in kind words and the note as written; completing declines the rest', async () => {
    const petId = await createPet(api, staff, categoryId, 'Pepper');
    let before = smtp.received.length;
    const ada = await placedOrder(api, partner, petId, { adopter: ADA });
    const grace = await placedOrder(api, partner, petId, { adopter: GRACE });
    await next(before, 4);
    before = smtp.received.length;
    const declined = await transition(api, staff, ada.id, 'decline', {
      reason: 'home_not_suitable',
      note: 'Pepper needs a home without stairs.',
    });
    expect(declined.status).toBe(200);
    await smtp.waitFor(before + 1);
    const [message] = smtp.received.slice(before);
    expect(message?.subject).toBe('Your application for Pepper');
    expect(message?.text).toContain('not quite right for what this animal needs');
    expect(message?.text).toContain('Pepper needs a home without stairs.');

    before = smtp.received.length;
    const third = await placedOrder(api, partner, petId, {
      adopter: { name: 'Alan Turing', email: 'alan@example.org' },
    });
    await next(before, 2);
    before = smtp.received.length;
    expect((await transition(api, staff, grace.id, 'approve')).status).toBe(200);
    expect((await transition(api, staff, grace.id, 'complete')).status).toBe(200);
    const lines = await next(before, 4);
    expect(lines).toEqual([
      'alan@example.org: Your application for Pepper',
      'alan@example.org: Your application for Pepper: you are on the waiting list',
      'grace@example.org: Good news: Pepper can go home with you',
      'grace@example.org: Welcome home, Pepper',
    ]);
    const last = smtp.received.filter((each) => each.to === 'alan@example.org').at(-1);
    expect(last?.text).toContain('found a home with another family');
    expect(third.id).toBeGreaterThan(grace.id);
  }, 60_000);

  it("emails the adopter staff's question, keeps it with the notes, and lets only staff ask", async () => {
    const petId = await createPet(api, staff, categoryId, 'Clementine');
    let before = smtp.received.length;
    const ada = await placedOrder(api, partner, petId, { adopter: ADA });
    await next(before, 2);

    before = smtp.received.length;
    const question = 'Is your garden fenced?\nClementine is a digger.';
    const asked = await api.fetch(
      `/v1/store/orders/${ada.id}/questions`,
      json({ text: question }, { key: staff }),
    );
    expect(asked.status).toBe(201);
    expect(await asked.json()).toMatchObject({
      kind: 'question',
      text: question,
      author: 'Front desk',
    });
    expect(await next(before, 1)).toEqual([
      'ada@example.org: A question about your application for Clementine',
    ]);
    const message = smtp.received.at(-1);
    expect(message?.text).toContain('Is your garden fenced?');
    expect(message?.text).toContain('Clementine is a digger.');
    expect(message?.text).toContain(`Reply to ${STORE}`);
    expect(message?.html).toContain('/applications/status/');

    const notes = await api.fetch(`/v1/store/orders/${ada.id}/notes`, { key: staff });
    expect(
      ((await notes.json()) as { kind: string; text: string }[]).map((note) => note.kind),
    ).toEqual(['question']);

    // A partner cannot write to an adopter in the store's name; nothing is sent or kept.
    before = smtp.received.length;
    const refused = await api.fetch(
      `/v1/store/orders/${ada.id}/questions`,
      json({ text: 'Hello?' }, { key: partner }),
    );
    expect(refused.status).toBe(403);
    expect(await api.prisma.orderNote.count({ where: { orderId: BigInt(ada.id) } })).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(smtp.received.length).toBe(before);
  }, 60_000);
});
