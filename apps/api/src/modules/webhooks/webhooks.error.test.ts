import {
  type TWebhookDelivery,
  type TWebhookEndpoint,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
} from '@pets/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApi, type TTestApi } from '../../test/api-harness';
import { createEndpoint, eventually, startReceiver, type TReceiver } from './webhooks.test-support';

/**
 * When deliveries cannot be made: an endpoint that fails for the whole retry schedule is disabled
 * and says why; a process with JOBS_WORKER=off sends nothing. The schedule runs 100,000 times
 * faster here (WEBHOOK_RETRY_SCALE), about 3 seconds in all.
 */

const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCALE: '0.00001',
  WEBHOOK_POLL_INTERVAL_MS: '50',
};
let hooks: TReceiver;

beforeAll(async () => {
  hooks = await startReceiver();
});

afterAll(async () => {
  await hooks.close();
});

const newPet = async (api: TTestApi, key: string, name: string) => {
  const category = await api.prisma.category.upsert({
    where: { name: 'Parrots' },
    create: { name: 'Parrots' },
    update: {},
  });
  const response = await api.fetch(
    '/v1/pets',
    json({ name, categoryId: Number(category.id) }, { key }),
  );
  expect(response.status).toBe(201);
};

describe('failing endpoints', () => {
  let api: TTestApi;
  beforeAll(async () => {
    api = await startTestApi({ env: WEBHOOK_ENV });
  });
  afterAll(async () => {
    await api.close();
  });

  it('disables an endpoint whose deliveries failed for the whole schedule, and says why', async () => {
    const key = await api.createKey({ name: 'Partner', plan: 'business' });
    const endpoint = await createEndpoint(api, key, { url: hooks.url, events: ['pet.created'] });
    hooks.answer(503);
    await newPet(api, key, 'Polly');
    const disabled = await eventually(async () => {
      const response = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}`, { key });
      const body = (await response.json()) as TWebhookEndpoint;
      expect(body.status).toBe('disabled');
      return body;
    });
    expect(disabled.disabledReason).toMatch(
      /every delivery failed for the whole retry schedule \(the last: the receiver answered 503, not 2xx\)/,
    );
    const response = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key });
    const [delivery] = (await response.json()) as TWebhookDelivery[];
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    // Twelve attempts over about 3 days (here 2.7 s): at once, then the eleven waits of the schedule.
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual(
      Array(WEBHOOK_RETRY_SCHEDULE_SECONDS.length).fill(503),
    );

    // Disabled: later events are not sent, until it is enabled again.
    hooks.answer(200);
    await newPet(api, key, 'Unsent');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(hooks.received).toEqual([]);
    const enabled = await api.fetch(
      `/v1/webhook-endpoints/${endpoint.id}`,
      json({ status: 'enabled' }, { key, method: 'PATCH' }),
    );
    expect(await enabled.json()).toMatchObject({ status: 'enabled', disabledReason: null });
    await newPet(api, key, 'Sent');
    await eventually(() => expect(hooks.received).toHaveLength(1));
    expect(JSON.parse(hooks.received[0]?.body ?? '{}')).toMatchObject({
      type: 'pet.created',
      data: { name: 'Sent' },
    });
  });
});

describe('JOBS_WORKER=off', () => {
  it('sends nothing from a process without the worker; the deliveries wait for one', async () => {
    hooks.answer(200);
    const api = await startTestApi({ env: { ...WEBHOOK_ENV, JOBS_WORKER: 'off' } });
    try {
      const key = await api.createKey({ name: 'Partner', plan: 'business' });
      const endpoint = await createEndpoint(api, key, { url: hooks.url, events: ['*'] });
      const before = hooks.received.length;
      await newPet(api, key, 'Quiet');
      const test = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/test`, {
        key,
        method: 'POST',
      });
      expect(test.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hooks.received).toHaveLength(before);
      const response = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key });
      const [delivery] = (await response.json()) as TWebhookDelivery[];
      expect(delivery).toMatchObject({ status: 'pending', attempts: [] });

      // A process with the worker takes over, and deletes test deliveries as old as events get.
      const stale = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/test`, {
        key,
        method: 'POST',
      });
      const staleId = BigInt(((await stale.json()) as TWebhookDelivery).id.slice(4));
      await api.prisma.webhookDelivery.update({
        where: { id: staleId },
        data: { createdAt: new Date(Date.now() - 31 * 86_400_000), status: 'succeeded' },
      });
      const worker = await startTestApi({ env: WEBHOOK_ENV, database: api.database });
      try {
        await eventually(async () =>
          expect(
            await api.prisma.webhookDelivery.findUnique({ where: { id: staleId } }),
          ).toBeNull(),
        );
        await eventually(() =>
          expect(hooks.received.map((request) => request.headers['webhook-id'])).toContain(
            delivery?.eventId,
          ),
        );
      } finally {
        await worker.close();
      }
    } finally {
      await api.close();
    }
  });
});
