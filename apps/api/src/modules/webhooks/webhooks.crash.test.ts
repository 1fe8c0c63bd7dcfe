import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TEvent } from '@pets/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { json, useTestApi } from '../../test/api-harness';
import { startApiProcess, type TApiProcess } from '../../test/api-process';
import { createEndpoint, eventually, startReceiver, type TReceiver } from './webhooks.test-support';

/**
 * Several API processes on one database, as deployed (two replicas): their workers never hand
 * out an event twice, and a worker killed in the middle of an attempt loses nothing: another
 * process sends the delivery once the killed one's lease has run out. The test's own API serves
 * the requests and runs no worker (JOBS_WORKER=off), so every delivery is a child process's.
 */

const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCALE: '0.001',
  WEBHOOK_POLL_INTERVAL_MS: '100',
};
const api = useTestApi({ env: { ...WEBHOOK_ENV, JOBS_WORKER: 'off' } });
let hooks: TReceiver;
let dataDir: string;
let staff: string;
let categoryId: number;
const processes: TApiProcess[] = [];

beforeAll(async () => {
  hooks = await startReceiver();
  dataDir = mkdtempSync(join(tmpdir(), 'pets-webhooks-crash-'));
  staff = await api.createKey({ name: 'Front desk', role: 'staff', plan: 'business' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
});

afterAll(async () => {
  for (const each of processes) {
    each.child.kill('SIGKILL');
    await each.exited;
  }
  await hooks?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const startWorker = async () => {
  const started = await startApiProcess({
    DATABASE_URL: api.database.url,
    DATA_DIR: dataDir,
    ...WEBHOOK_ENV,
  });
  processes.push(started);
  return started;
};

const newPets = async (count: number, prefix: string) => {
  for (let index = 0; index < count; index += 1) {
    const response = await api.fetch(
      '/v1/pets',
      json({ name: `${prefix} ${index}`, categoryId }, { key: staff }),
    );
    expect(response.status).toBe(201);
  }
};

it('delivers each event once with two workers, and at least once when a worker is killed mid-attempt', async () => {
  const first = await startWorker();
  const second = await startWorker();
  const endpoint = await createEndpoint(api, staff, { url: hooks.url, events: ['pet.created'] });
  const ids = () =>
    hooks.received.map(
      ({ body, headers }) => (new Webhook(endpoint.secret).verify(body, headers) as TEvent).id,
    );

  // Two workers, ten events: each sent once.
  await newPets(10, 'Twin');
  await eventually(() => expect(ids()).toHaveLength(10));
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(new Set(ids()).size).toBe(10);
  expect(ids()).toHaveLength(10);
  expect(await api.prisma.webhookDelivery.count()).toBe(10);

  // Workers stuck in attempts are killed (both: each may hold one), then a new one starts.
  hooks.answer('hold');
  await newPets(3, 'Orphan');
  await eventually(() => expect(hooks.held()).toBeGreaterThanOrEqual(1));
  for (const each of [first, second]) {
    each.child.kill('SIGKILL');
    await each.exited;
  }
  hooks.answer(200);
  await startWorker();
  // The lease of the killed worker's claim (30 s) runs out, and everything arrives.
  await eventually(() => expect(new Set(ids()).size).toBe(13), 60_000);
  const events = await api.fetch('/v1/events?type=pet.created&limit=100', { key: staff });
  const listed = ((await events.json()) as TEvent[]).map((event) => event.id);
  expect([...new Set(ids())].sort()).toEqual([...listed].sort());
  expect(await api.prisma.webhookDelivery.count()).toBe(13);
}, 120_000);
