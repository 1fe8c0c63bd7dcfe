import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '@pets/db';
import { MailRepository } from '@pets/store/mail.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJobQueue, MAIL_RECOVERY_SECONDS, type TJobQueue } from '../jobs/job-queue';
import { createLogger } from '../logging/logger';
import { startApiProcess, type TApiProcess } from '../test/api-process';
import { startSmtpServer, type TTestSmtpServer } from '../test/smtp-server';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';

/**
 * A worker killed in the middle of a send (SIGKILL while the mail server has the message but has
 * not answered), with a second message waiting in the same batch: neither is lost nor sent twice,
 * and both go within the time docs/operations.md gives (MAIL_RECOVERY_SECONDS). Another API
 * process's worker takes the jobs once the killed one's heartbeat stops, and the server receives
 * each message once.
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

const approval = (petName: string, adopterName: string) => ({
  template: 'application-approved',
  to: 'ada@example.org',
  data: {
    orderId: 3,
    petId: 9,
    petName,
    adopterName,
    placedAt: '2026-11-20T12:00:00.000Z',
  },
});

it('loses nothing, sends nothing twice, and sends again within the documented time when the worker is killed mid-send', async () => {
  const first = await startApi();
  const held = smtp.holdNext();
  // Two messages of one transaction: one job each, fetched in one batch, sent one after the other.
  await withTransaction(pool, (client) =>
    new MailRepository(pool, queue).enqueue(
      client,
      approval('Juniper', 'Ada Lovelace'),
      approval('Pickles', 'Ada Lovelace'),
    ),
  );
  await held.arrived;
  // The process that will take over is already running, as in a deployment of two.
  await startApi();
  first.child.kill('SIGKILL');
  await first.exited;
  // The server's answer comes only after it has seen the killed client's connection end.
  await held.clientGone;
  held.release();
  await expect.poll(() => smtp.abandoned(), { timeout: 5_000 }).toBe(1);
  expect(smtp.received).toEqual([]);

  // The jobs of a dead worker: its heartbeat stopped, so the other process's queue retries them,
  // both within the documented time from the kill.
  const received = await smtp.waitFor(2, MAIL_RECOVERY_SECONDS * 1000);
  // Each retried on its own (pg-boss spreads retries a little), so in either order.
  expect(received.map((message) => message.subject).sort()).toEqual([
    'Good news: Juniper can go home with you',
    'Good news: Pickles can go home with you',
  ]);
  // Nothing more comes: each row is marked sent, after two attempts for the first (one for the
  // second, which the killed worker never reached), and each job is done.
  await expect
    .poll(
      async () =>
        (
          await pool.query<{ state: string }>(
            "SELECT state FROM pgboss.job WHERE name = 'mail.send'",
          )
        ).rows.map((row) => row.state),
      { timeout: 10_000 },
    )
    .toEqual(['completed', 'completed']);
  expect(smtp.received).toHaveLength(2);
  const { rows } = await pool.query<{ sent_at: Date | null; attempts: number }>(
    'SELECT sent_at, attempts FROM mail_messages ORDER BY id',
  );
  expect(rows).toEqual([
    { sent_at: expect.any(Date), attempts: 2 },
    { sent_at: expect.any(Date), attempts: 1 },
  ]);
}, 150_000);
