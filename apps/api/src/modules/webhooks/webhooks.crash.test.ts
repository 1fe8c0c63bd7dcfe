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
 * Several API processes on one database, as deployed (two replicas): their workers send to one
 * endpoint one delivery at a time, in the order the events were recorded, each event once; and a
 * worker killed in the middle of an attempt loses nothing: another process sends the delivery
 * once the killed one's lease has run out. The test's own API serves the requests and runs no
 * worker (JOBS_WORKER=off), so every delivery is a child process's.
 */

const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCALE: '0.001',
  WEBHOOK_POLL_INTERVAL_MS: '100',
};
const api = useTestApi({ env: { ...WEBHOOK_ENV, JOBS_WORKER: 'off' } });
const receivers: TReceiver[] = [];
let dataDir: string;
let staff: string;
let categoryId: number;
const processes: TApiProcess[] = [];

const startWorker = async () => {
  const started = await startApiProcess({
    DATABASE_URL: api.database.url,
    DATA_DIR: dataDir,
    ...WEBHOOK_ENV,
  });
  processes.push(started);
  return started;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pets-webhooks-crash-'));
  staff = await api.createKey({ name: 'Front desk', role: 'staff', plan: 'business' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
  await Promise.all([startWorker(), startWorker()]);
}, 120_000);

afterAll(async () => {
  for (const each of processes) {
    each.child.kill('SIGKILL');
    await each.exited;
  }
  await Promise.all(receivers.map((receiver) => receiver.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

const receiver = async () => {
  const started = await startReceiver();
  receivers.push(started);
  return started;
};

/** Creates `count` animals one after the other; answers their ids, in that order. */
const newPets = async (count: number, prefix: string): Promise<number[]> => {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await api.fetch(
      '/v1/pets',
      json({ name: `${prefix} ${index}`, categoryId }, { key: staff }),
    );
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id: number }).id);
  }
  return ids;
};

/** The events a receiver got, in arrival order, each verified by standardwebhooks. */
const verified = (hooks: TReceiver, secret: string): TEvent[] =>
  hooks.received.map(({ body, headers }) => new Webhook(secret).verify(body, headers) as TEvent);

it('sends one endpoint its events one at a time, in the order they were recorded, each once, from two processes', async () => {
  const hooks = await receiver();
  const endpoint = await createEndpoint(api, staff, { url: hooks.url, events: ['pet.created'] });
  const created = await newPets(200, 'Queue');
  const events = await eventually(() => {
    const got = verified(hooks, endpoint.secret);
    expect(got.length).toBeGreaterThanOrEqual(200);
    return got;
  }, 60_000);
  // Every event once, in the order the animals were created (their events recorded).
  expect(events.map((event) => event.data.id)).toEqual(created);
  expect(new Set(events.map((event) => event.id)).size).toBe(200);
  // Never two at the receiver at once, although both processes send.
  expect(hooks.maxInFlight()).toBe(1);
  await eventually(async () =>
    expect(
      await api.prisma.webhookDelivery.count({
        where: { endpointId: BigInt(endpoint.id.slice(3)), status: 'succeeded' },
      }),
    ).toBe(200),
  );
  expect(verified(hooks, endpoint.secret)).toHaveLength(200);
}, 120_000);

it('loses nothing when both workers are killed mid-attempt: another process sends it once the lease ends', async () => {
  const hooks = await receiver();
  const endpoint = await createEndpoint(api, staff, { url: hooks.url, events: ['pet.created'] });
  const ids = () => verified(hooks, endpoint.secret).map((event) => event.id);

  // Workers stuck in an attempt are killed (both: either may hold it), then a new one starts.
  hooks.answer('hold');
  await newPets(3, 'Orphan');
  await eventually(() => expect(hooks.held()).toBe(1));
  for (const each of [...processes]) {
    each.child.kill('SIGKILL');
    await each.exited;
  }
  hooks.answer(200);
  await startWorker();
  // The lease of the killed worker's claim (30 s) runs out, and everything arrives, in order.
  await eventually(() => expect(new Set(ids()).size).toBe(3), 60_000);
  const response = await api.fetch('/v1/events?type=pet.created&limit=3', { key: staff });
  const listed = ((await response.json()) as TEvent[]).map((event) => event.id);
  expect(ids()).toEqual([...listed].reverse());
  expect(
    await api.prisma.webhookDelivery.count({ where: { endpointId: BigInt(endpoint.id.slice(3)) } }),
  ).toBe(3);
}, 120_000);
