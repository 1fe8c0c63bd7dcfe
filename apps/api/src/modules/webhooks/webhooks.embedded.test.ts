import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TEvent } from '@pets/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from '../../test/api-process';
import { runCliProcess } from '../../test/cli-process';
import { eventually, startReceiver, type TReceiver } from './webhooks.test-support';

/**
 * Webhooks on the embedded default (DATABASE_URL unset, PGlite): the worker's statements (row
 * locks with SKIP LOCKED, the transaction snapshot of the fan-out's cursor) work there too, and
 * an event reaches the receiver signed.
 */

let dataDir: string;
let api: TApiProcess | undefined;
let hooks: TReceiver;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pets-webhooks-embedded-'));
  hooks = await startReceiver();
});

afterAll(async () => {
  if (api) {
    api.child.kill('SIGTERM');
    await api.exited;
  }
  await hooks.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('delivers an event signed on the embedded database', { timeout: 120_000 }, async () => {
  const env = {
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '100',
  };
  api = await startApiProcess(env);
  const created = await runCliProcess(['keys', 'create', '--plan', 'pro', '--role', 'staff'], env);
  expect(created.code, created.stderr).toBe(0);
  const staff = created.stdout.trim().split('\n').at(-1) ?? '';
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${api?.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return response.json() as Promise<{ id: number | string; secret?: string }>;
  };
  const endpoint = await call('/v1/webhook-endpoints', { url: hooks.url, events: ['pet.created'] });
  const categories = (await (
    await fetch(`${api.baseUrl}/v1/categories`, { headers: { authorization: `Bearer ${staff}` } })
  ).json()) as { id: number }[];
  const pet = await call('/v1/pets', {
    name: 'Embedded Nibbles',
    categoryId: categories[0]?.id,
  });
  const [event] = await eventually(() => {
    const events = hooks.received.map(
      ({ body, headers }) => new Webhook(endpoint.secret ?? '').verify(body, headers) as TEvent,
    );
    expect(events).toHaveLength(1);
    return events;
  }, 30_000);
  expect(event).toMatchObject({ type: 'pet.created', data: { id: pet.id } });
  expect(api.logs().some((line) => line.event === 'webhook_worker_failing')).toBe(false);
});
