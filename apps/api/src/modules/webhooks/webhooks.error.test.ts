import {
  type TWebhookDelivery,
  type TWebhookEndpoint,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
} from '@pets/contract';
import type { TIssuedOrgKey } from '@pets/contract/site';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  testSite,
} from '../../accounts/accounts.test-support';
import { json, startTestApi, type TTestApi } from '../../test/api-harness';
import { startSmtpServer, type TTestSmtpServer } from '../../test/smtp-server';
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

describe("a disabled endpoint's owners", () => {
  let api: TTestApi;
  let smtp: TTestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    api = await startTestApi({
      env: { ...WEBHOOK_ENV, ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url },
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  it("are told by email, once: the organisation's members, not another organisation's", async () => {
    const site = await testSite(api);
    const developer = await createAccount(api, 'developer', { name: 'Dana Developer' });
    const outsider = await createAccount(api, 'developer');
    const signedIn = await signInAs(site, developer);
    const created = await site.asPerson(signedIn.credential, '/internal/org/keys', {
      body: { name: 'Shelter app', mode: 'live', readOnly: false },
    });
    expect(created.status).toBe(201);
    const { key, apiKey } = (await created.json()) as TIssuedOrgKey;
    const endpoint = await createEndpoint(api, key, { url: hooks.url, events: ['pet.created'] });
    // An operator's key (no person behind it) fails too: its endpoint is disabled, nobody emailed.
    const operatorKey = await api.createKey({ name: 'Operator', plan: 'business' });
    const operatorEndpoint = await createEndpoint(api, operatorKey, {
      url: hooks.url,
      events: ['pet.created'],
    });
    hooks.answer(503);
    await newPet(api, operatorKey, 'Kea');

    const [message] = await smtp.waitFor(1, 20_000);
    expect(message?.to).toBe(developer.email);
    expect(message?.subject).toBe(`Webhook endpoint ${endpoint.id} was disabled`);
    expect(message?.html).toContain('Hello Dana Developer');
    expect(message?.text).toContain(hooks.url);
    expect(message?.text).toContain(`"Shelter app" (${apiKey.start}...)`);
    expect(message?.text).toContain('the receiver answered 503, not 2xx');
    expect(message?.text).toContain(`PATCH /v1/webhook-endpoints/${endpoint.id}`);
    for (const each of [endpoint, operatorEndpoint]) {
      const response = await api.fetch(`/v1/webhook-endpoints/${each.id}`, {
        key: each === endpoint ? key : operatorKey,
      });
      expect(((await response.json()) as TWebhookEndpoint).status).toBe('disabled');
    }
    // Disabled once, told once: nothing more arrives, and nothing to the other organisation.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(smtp.received.map((each) => each.to)).toEqual([developer.email]);
    expect(smtp.received.some((each) => each.to.includes(outsider.email))).toBe(false);
    hooks.answer(200);
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
