import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../jobs/job-queue';
import { createPet, placedOrder } from '../modules/orders/orders.test-support';
import { startTestApi, type TTestApi } from '../test/api-harness';
import { startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';

/**
 * STAFF_DIGEST=daily: staff hear of new applications once a day, in one email listing them,
 * instead of one email each. The digest is a scheduled job of the queue; the test sends that job
 * itself (as the schedule would at STAFF_DIGEST_HOUR) through a second pg-boss client.
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let staff: string;
let partner: string;
let categoryId: number;

const STORE = 'digest@kindred.example';
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({
    env: {
      SMTP_URL: smtp.url,
      SITE_URL: 'https://adopt.example',
      STORE_EMAIL: STORE,
      STAFF_DIGEST: 'daily',
      STAFF_DIGEST_HOUR: '7',
      STORE_TIME_ZONE: 'America/New_York',
    },
  });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  partner = await api.createKey({ name: 'Partner' });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

/** Sends the digest's job, as the schedule would, and stops the second client. */
const sendDigestJob = async () => {
  const boss = new PgBoss({
    connectionString: api.database.url,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.send(QUEUES.staffDigest, {});
  await boss.stop({ graceful: false });
};

const toStaff = () => smtp.received.filter((message) => message.to === STORE);

const waitUntil = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`waited 30 s for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('the staff digest', () => {
  it('is scheduled at STAFF_DIGEST_HOUR on the store clock', async () => {
    const deadline = Date.now() + 30_000;
    let rows: { cron: string; timezone: string }[] = [];
    while (rows.length === 0 && Date.now() < deadline) {
      rows = (
        await api.pool.query<{ cron: string; timezone: string }>(
          'SELECT cron, timezone FROM pgboss.schedule WHERE name = $1',
          [QUEUES.staffDigest],
        )
      ).rows;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(rows).toEqual([{ cron: '0 7 * * *', timezone: 'America/New_York' }]);
  });

  it('replaces the email per application with one a day listing them, sent once', async () => {
    const petId = await createPet(api, staff, categoryId, 'Marmalade');
    const before = smtp.received.length;
    const ada = await placedOrder(api, partner, petId, {
      adopter: { name: 'Ada Lovelace', email: 'ada.digest@example.org' },
    });
    const bo = await placedOrder(api, partner, petId, {
      adopter: { name: 'Bo Bramble', email: 'bo.digest@example.org' },
    });
    // The adopters hear at once; staff do not.
    await waitUntil(() => smtp.received.length >= before + 2, 'the adopters’ emails');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(toStaff()).toEqual([]);

    // The digest lists applications placed before the last minute (one still committing waits
    // for the next): these two, as if they arrived an hour ago.
    await api.prisma.order.updateMany({
      where: { id: { in: [BigInt(ada.id), BigInt(bo.id)] } },
      data: { placedAt: new Date(Date.now() - HOUR_MS) },
    });
    await sendDigestJob();
    await waitUntil(() => toStaff().length === 1, 'the digest');
    const [digest] = toStaff();
    expect(digest?.subject).toBe('2 new applications');
    expect(digest?.text).toContain(`A-${ada.id}: Ada Lovelace for Marmalade`);
    expect(digest?.text).toContain(`A-${bo.id}: Bo Bramble for Marmalade`);
    expect(digest?.html).toContain(`href="https://adopt.example/staff/applications/${ada.id}"`);

    // The same digest again (a retry, a second process): nothing new, nothing sent.
    await sendDigestJob();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(toStaff()).toHaveLength(1);
  }, 90_000);
});
