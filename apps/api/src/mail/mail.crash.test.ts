import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '@pets/db';
import { MailRepository } from '@pets/store/mail.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJobQueue, type TJobQueue } from '../jobs/job-queue';
import { createLogger } from '../logging/logger';
import { startApiProcess, type TApiProcess } from '../test/api-process';
import { startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';

/**
 * A worker killed in the middle of a send (SIGKILL while the mail server has the message but has
 * not answered): the message is neither lost nor sent twice. Another API process's worker takes
 * the job once the killed one's heartbeat stops, and the server receives the message once, with
 * the Message-ID of the first attempt.
 */

let smtp: TTestSmtpServer;
let database: TTestDatabase;
let pool: Pool;
let queue: TJobQueue;
let dataDir: string;
const processes: TApiProcess[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'pets-mail-crash-'));
  pool = createPool(database.url, 2);
  queue = createJobQueue({ pool, logger: createLogger('silent'), isEmbedded: false });
  await queue.start();
}, 60_000);

afterAll(async () => {
  for (const each of processes) {
    each.child.kill('SIGKILL');
    await each.exited;
  }
  await queue?.stop();
  await pool?.end();
  await database?.drop();
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const startApi = async () => {
  const api = await startApiProcess({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
  });
  processes.push(api);
  return api;
};

it('loses nothing and sends nothing twice when the worker is killed mid-send', async () => {
  const first = await startApi();
  const held = smtp.holdNext();
  await withTransaction(pool, (client) =>
    new MailRepository(pool, queue).enqueue(client, {
      template: 'application-approved',
      to: 'ada@example.org',
      data: {
        orderId: 3,
        petId: 9,
        petName: 'Juniper',
        adopterName: 'Ada Lovelace',
        placedAt: '2026-11-20T12:00:00.000Z',
      },
    }),
  );
  await held.arrived;
  first.child.kill('SIGKILL');
  await first.exited;
  held.release();
  await expect.poll(() => smtp.abandoned(), { timeout: 5_000 }).toBe(1);
  expect(smtp.received).toEqual([]);

  // The job of a dead worker: its heartbeat stopped, so another worker's queue retries it.
  await startApi();
  const [message] = await smtp.waitFor(1, 90_000);
  expect(message?.subject).toBe('Good news: Juniper can go home with you');
  // Nothing more comes: the row is marked sent, and the job is done.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(smtp.received).toHaveLength(1);
  const { rows } = await pool.query<{ sent_at: Date | null; attempts: number }>(
    'SELECT sent_at, attempts FROM mail_messages',
  );
  expect(rows).toEqual([{ sent_at: expect.any(Date), attempts: 2 }]);
}, 150_000);
