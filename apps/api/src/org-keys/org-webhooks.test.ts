import {
  type TEvent,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  WEBHOOK_TEST_EVENT_TYPE,
} from '@pets/contract';
import type { TIssuedOrgKey } from '@pets/contract/site';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TSignedIn,
  type TTestSite,
  testSite,
} from '../accounts/accounts.test-support';
import {
  eventually,
  startReceiver,
  type TReceiver,
} from '../modules/webhooks/webhooks.test-support';
import { errorBody, useTestApi } from '../test/api-harness';

/**
 * The developer portal's webhooks over real HTTP both ways (issue 27, "Webhook endpoints: list,
 * add, test, see deliveries"): a developer adds an endpoint for one of the organisation's keys,
 * sends it a test event that a real receiver gets, signed as Standard Webhooks says (checked with
 * `standardwebhooks`), and sees the delivery. The endpoint is the key's own: /v1 with the key
 * lists it. Another organisation's key is 404; a read-only key cannot add one.
 */

const api = useTestApi({
  env: {
    ...ACCOUNT_TEST_ENV,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '100',
  },
});

let site: TTestSite;
let developer: TSignedIn;
let other: TSignedIn;
let receiver: TReceiver;

beforeAll(async () => {
  site = await testSite(api);
  developer = await signInAs(site, await createAccount(api, 'developer'));
  other = await signInAs(site, await createAccount(api, 'developer'));
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

const asDeveloper = (
  path: string,
  init: { method?: string; body?: unknown } = {},
  who: TSignedIn = developer,
) => site.asPerson(who.credential, `/internal${path}`, init);

const createKey = async (readOnly: boolean, who: TSignedIn = developer) => {
  const response = await asDeveloper(
    '/org/keys',
    { body: { name: readOnly ? 'Reader' : 'Shelter app', mode: 'live', readOnly } },
    who,
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TIssuedOrgKey;
};

describe("a key's webhook endpoints in the portal", () => {
  it('adds one, shows its secret once, tests it to a real receiver, lists the delivery', async () => {
    const issued = await createKey(false);
    const added = await asDeveloper(`/org/keys/${issued.apiKey.id}/webhook-endpoints`, {
      body: { url: receiver.url, events: ['pet.created'], description: 'Our site' },
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const endpoint = (await added.json()) as TWebhookEndpoint & { secret: string };
    expect(endpoint.secret).toMatch(/^whsec_/);

    // Listed without its secret, and the key's own on /v1.
    const listed = await asDeveloper(`/org/keys/${issued.apiKey.id}/webhook-endpoints`);
    expect(listed.status).toBe(200);
    const { endpoints } = (await listed.json()) as { endpoints: TWebhookEndpoint[] };
    expect(endpoints.map((each) => each.id)).toEqual([endpoint.id]);
    expect(JSON.stringify(endpoints)).not.toContain(endpoint.secret);
    const onV1 = await api.fetch('/v1/webhook-endpoints', { key: issued.key });
    expect(((await onV1.json()) as { id: string }[]).map((each) => each.id)).toEqual([endpoint.id]);

    const tested = await asDeveloper(
      `/org/keys/${issued.apiKey.id}/webhook-endpoints/${endpoint.id}/test`,
      { method: 'POST' },
    );
    expect(tested.status, await tested.clone().text()).toBe(202);
    const received = await eventually(() => {
      expect(receiver.received).toHaveLength(1);
      return receiver.received[0] as { headers: Record<string, string>; body: string };
    });
    const event = new Webhook(endpoint.secret).verify(received.body, received.headers) as TEvent;
    expect(event.type).toBe(WEBHOOK_TEST_EVENT_TYPE);

    const deliveries = await eventually(async () => {
      const response = await asDeveloper(
        `/org/keys/${issued.apiKey.id}/webhook-endpoints/${endpoint.id}/deliveries`,
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { deliveries: TWebhookDelivery[] };
      expect(body.deliveries[0]?.status).toBe('succeeded');
      return body.deliveries;
    });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.attempts[0]?.statusCode).toBe(200);
  });

  it('a read-only key cannot add one (403), in words', async () => {
    const reader = await createKey(true);
    const response = await asDeveloper(`/org/keys/${reader.apiKey.id}/webhook-endpoints`, {
      body: { url: receiver.url, events: ['pet.created'] },
    });
    expect(response.status).toBe(403);
    expect((await errorBody(response)).message).toMatch(/read-only/);
  });

  it("another organisation's key and endpoints are 404, as if they did not exist", async () => {
    const theirs = await createKey(false, other);
    const added = await asDeveloper(
      `/org/keys/${theirs.apiKey.id}/webhook-endpoints`,
      { body: { url: receiver.url, events: ['pet.created'] } },
      other,
    );
    expect(added.status).toBe(201);
    const endpoint = (await added.json()) as TWebhookEndpoint;
    for (const [path, method] of [
      [`/org/keys/${theirs.apiKey.id}/webhook-endpoints`, 'GET'],
      [`/org/keys/${theirs.apiKey.id}/webhook-endpoints/${endpoint.id}/test`, 'POST'],
      [`/org/keys/${theirs.apiKey.id}/webhook-endpoints/${endpoint.id}/deliveries`, 'GET'],
    ] as const) {
      const response = await asDeveloper(path, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    // The developer's own key does not reach the other key's endpoint either.
    const mine = await createKey(false);
    const crossed = await asDeveloper(
      `/org/keys/${mine.apiKey.id}/webhook-endpoints/${endpoint.id}/deliveries`,
    );
    expect(crossed.status).toBe(404);
  });

  it('refuses a private address unless the API allows it, as /v1 does', async () => {
    const issued = await createKey(false);
    const response = await asDeveloper(`/org/keys/${issued.apiKey.id}/webhook-endpoints`, {
      body: { url: 'ftp://example.org/hooks', events: ['pet.created'] },
    });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).code).toBe('invalid_request');
  });
});
