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
import { startTcpProxy, type TTcpProxy } from '../test/tcp-proxy';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';

/**
 * The database lost between the mail server taking a message and the worker recording it: the
 * built API reaches its database through a proxy the test cuts while the SMTP server holds its
 * answer, and restores once the worker has said so. The message must go once (the worker records
 * it when the database is back, rather than failing the job, which would send it again), and the
 * log must say it went while it could not be recorded. The machine's PostgreSQL is never touched:
 * only the test's proxy in front of it.
 */

let smtp: TTestSmtpServer;
let database: TTestDatabase;
let proxy: TTcpProxy;
let pool: Pool;
let queue: TJobQueue;
let dataDir: string;
let api: TApiProcess | undefined;

beforeAll(async () => {
  smtp = await startSmtpServer();
  database = await createTestDatabase();
  const url = new URL(database.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  dataDir = mkdtempSync(join(tmpdir(), 'pets-mail-fault-'));
  pool = createPool(database.url, 2);
  queue = createJobQueue({ pool, logger: createLogger('silent'), isEmbedded: false });
  await queue.start();
  api = await startApiProcess({
    DATABASE_URL: proxy.through(database.url),
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
  });
}, 60_000);

afterAll(async () => {
  api?.child.kill('SIGKILL');
  await api?.exited;
  await queue?.stop();
  await pool?.end();
  await proxy?.close();
  await database?.drop();
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('sends a message once when the database is lost after the server took it, and logs that it went', async () => {
  const worker = api as TApiProcess;
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
  const {
    rows: [row],
  } = await pool.query<{ id: string }>('SELECT id::text FROM mail_messages');
  const mailId = row?.id;
  await held.arrived;
  // The database goes away while the server holds its answer; then the server takes the message.
  proxy.cut();
  held.release();
  const [message] = await smtp.waitFor(1);
  expect(message?.subject).toBe('Good news: Juniper can go home with you');
  // The worker says at once that it sent a message it cannot record.
  await expect
    .poll(
      () =>
        worker
          .logs()
          .some((line) => line.event === 'mail_sent_not_recorded' && line.mailId === mailId),
      { timeout: 15_000 },
    )
    .toBe(true);
  proxy.restore();

  // Recorded once the database answers again, and its job done: nothing more will come.
  await expect
    .poll(
      async () =>
        (
          await pool.query<{ sent: boolean; state: string }>(
            `SELECT m.sent_at IS NOT NULL AS sent, j.state
               FROM mail_messages m, pgboss.job j
              WHERE j.name = 'mail.send' AND j.data->>'mailId' = m.id::text`,
          )
        ).rows,
      { timeout: 30_000 },
    )
    .toEqual([{ sent: true, state: 'completed' }]);
  expect(smtp.received).toHaveLength(1);
  expect(
    worker.logs().filter((line) => line.msg === 'mail sent' && line.mailId === mailId),
  ).toHaveLength(1);
}, 90_000);
