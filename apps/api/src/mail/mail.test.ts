import { createPool } from '@pets/db';
import { MailRepository } from '@pets/store/mail.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJobQueue, type TJobQueue } from '../jobs/job-queue';
import { createLogger } from '../logging/logger';
import { startTestApi, type TTestApi } from '../test/api-harness';
import { startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';
import type { TMailRequest } from './mail-templates';

/**
 * The outbox and its worker against a real SMTP server: a message queued on a committed
 * transaction arrives once, rendered in HTML and plain text; one queued on a rolled-back
 * transaction never exists; a refusal is retried until the server takes it.
 */

let smtp: TTestSmtpServer;
let api: TTestApi;
let pool: Pool;
let queue: TJobQueue;
let mail: MailRepository;

const received = (overrides: Partial<TMailRequest['data']> = {}): TMailRequest => ({
  template: 'application-received',
  to: 'ada@example.org',
  data: {
    orderId: 7,
    petId: 42,
    petName: 'Biscuit',
    adopterName: 'Ada Lovelace',
    placedAt: '2026-07-01T09:30:00.000Z',
    ...overrides,
  },
});

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({ env: { SMTP_URL: smtp.url, SITE_URL: 'https://adopt.example' } });
  // The sending side, as a feature's transaction uses it.
  pool = createPool(api.database.url, 2);
  queue = createJobQueue({ pool, logger: createLogger('silent'), isEmbedded: false });
  await queue.start();
  mail = new MailRepository(pool, queue);
}, 60_000);

afterAll(async () => {
  await queue?.stop();
  await pool?.end();
  await api?.close();
  await smtp?.close();
});

const rowsOf = async () =>
  (
    await pool.query<{
      id: string;
      sent_at: Date | null;
      attempts: number;
      last_error: string | null;
    }>('SELECT id, sent_at, attempts, last_error FROM mail_messages ORDER BY id')
  ).rows;

/**
 * The row at `index` (`-1`: the last) once the worker has recorded it as sent: the SMTP server
 * receives a message a moment before the worker's update commits.
 */
const sentRow = (index: number) =>
  vi.waitFor(
    async () => {
      const row = (await rowsOf()).at(index);
      if (!row?.sent_at) {
        throw new Error('not recorded as sent yet');
      }
      return row;
    },
    { timeout: 5_000, interval: 50 },
  );

describe('the mail outbox', () => {
  it('sends a committed message once, as HTML and plain text from one template, in the store time zone', async () => {
    await withTransaction(pool, (client) => mail.enqueue(client, received()));
    const [message] = await smtp.waitFor(1);
    expect(message?.to).toBe('ada@example.org');
    expect(message?.subject).toBe('We have your application for Biscuit');
    expect(message?.from).toBe('"Kindred Paws" <hello@kindredpaws.example>');
    // Summer time in London: 09:30 UTC is 10:30 there.
    for (const body of [message?.text, message?.html]) {
      expect(body).toContain('Biscuit');
      expect(body).toContain('1 July 2026');
      expect(body).toContain('10:30 BST');
      expect(body).toContain('A-7');
    }
    expect(message?.html).toContain('href="https://adopt.example/pets/42"');
    expect(message?.text).toContain('https://adopt.example/pets/42');
    expect(message?.messageId).toMatch(/^<mail-\d+\.\d+@adopt\.example>$/);
    // The server has the message before the worker records it as sent: wait for that record.
    const row = await sentRow(0);
    expect(row?.sent_at).toBeInstanceOf(Date);
    expect(row?.attempts).toBe(1);
  });

  it('never sends a message whose transaction rolled back', async () => {
    const before = smtp.received.length;
    await expect(
      withTransaction(pool, async (client) => {
        await mail.enqueue(client, received({ petName: 'Ghost' }));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await withTransaction(pool, (client) => mail.enqueue(client, received({ petName: 'Pepper' })));
    await smtp.waitFor(before + 1);
    // Jobs run in order of arrival here (one worker): had the first existed, it came first.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(smtp.received.slice(before).map((each) => each.subject)).toEqual([
      'We have your application for Pepper',
    ]);
    expect((await rowsOf()).length).toBe(2);
  });

  it('retries a message the server refused, and says why in our words meanwhile', async () => {
    const before = smtp.received.length;
    smtp.refuseNext(1);
    await withTransaction(pool, (client) => mail.enqueue(client, received({ petName: 'Clover' })));
    await smtp.waitFor(before + 1, 60_000);
    const row = await sentRow(-1);
    expect(row?.attempts).toBe(2);
    expect(row?.last_error).toBeNull();
    // Meanwhile the row said why, in our words, and so did the log (without the recipient).
    const refusal = api.logs.find((line) => line.msg === 'mail not sent yet: retrying later');
    expect(refusal).toMatchObject({
      mailId: row?.id,
      reason: 'the mail server did not take the message (451)',
    });
    expect(JSON.stringify(refusal)).not.toContain('ada@example.org');
    expect(smtp.received.slice(before).map((each) => each.subject)).toEqual([
      'We have your application for Clover',
    ]);
  }, 90_000);
});
