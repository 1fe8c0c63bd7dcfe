import type { TWebhookDelivery } from '@pets/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';
import { placedOrder } from '../orders/orders.test-support';
import { createEndpoint, eventually, startReceiver, type TReceiver } from './webhooks.test-support';

/**
 * Who may manage and receive what, and where the API refuses to send: an endpoint is its key's
 * alone (another key's is a 404) and receives only what that key may read; read-only keys manage
 * none; and with private addresses not allowed (the production default), the API refuses to
 * connect to loopback, private and link-local addresses, at registration for literal addresses
 * and at every attempt for names, checking the addresses it connects to.
 */

const api = useTestApi({
  env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' },
});
let partner: string;
let otherPartner: string;
let readOnly: string;
let categoryId: number;
let hooks: TReceiver;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Rabbits' } })).id);
  partner = await api.createKey({ name: 'Partner', plan: 'business' });
  otherPartner = await api.createKey({ name: 'Other partner', plan: 'business' });
  readOnly = await api.createKey({ name: 'Kiosk', plan: 'business', readOnly: true });
  hooks = await startReceiver();
});

afterAll(async () => {
  await hooks.close();
});

const PUBLIC_URL = 'https://partner.example/hooks';

describe('webhook endpoints belong to their key', () => {
  it('refuses every write of a read-only key with the forbidden error', async () => {
    const created = await api.fetch(
      '/v1/webhook-endpoints',
      json({ url: PUBLIC_URL, events: ['*'] }, { key: readOnly }),
    );
    expect(created.status).toBe(403);
    expect(await errorBody(created)).toMatchObject({ code: 'forbidden', status: 403 });
    const endpoint = await createEndpoint(api, partner, { url: PUBLIC_URL, events: ['*'] });
    const path = `/v1/webhook-endpoints/${endpoint.id}`;
    for (const [method, suffix, body] of [
      ['PATCH', '', { status: 'disabled' }],
      ['DELETE', '', undefined],
      ['POST', '/rotate-secret', undefined],
      ['POST', '/test', undefined],
      ['POST', '/deliveries/whd_1/retry', undefined],
    ] as const) {
      const response = await api.fetch(
        `${path}${suffix}`,
        body ? json(body, { key: readOnly, method }) : { key: readOnly, method },
      );
      expect(response.status, `${method} ${suffix}`).toBe(403);
      expect((await errorBody(response)).code).toBe('forbidden');
    }
    // Reading is allowed: it has none of its own.
    const list = await api.fetch('/v1/webhook-endpoints', { key: readOnly });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([]);
  });

  it("answers 404 for another key's endpoint, as if it did not exist", async () => {
    const endpoint = await createEndpoint(api, partner, { url: PUBLIC_URL, events: ['*'] });
    const path = `/v1/webhook-endpoints/${endpoint.id}`;
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { status: 'disabled' }],
      ['DELETE', '', undefined],
      ['POST', '/rotate-secret', undefined],
      ['POST', '/test', undefined],
      ['GET', '/deliveries', undefined],
      ['POST', '/deliveries/whd_1/retry', undefined],
    ] as const) {
      const response = await api.fetch(
        `${path}${suffix}`,
        body ? json(body, { key: otherPartner, method }) : { key: otherPartner, method },
      );
      expect(response.status, `${method} ${suffix}`).toBe(404);
      expect(await errorBody(response)).toMatchObject({ code: 'not_found', status: 404 });
    }
    const list = await api.fetch('/v1/webhook-endpoints', { key: otherPartner });
    expect(await list.json()).toEqual([]);
    // Unchanged by all that.
    const read = await api.fetch(path, { key: partner });
    expect(await read.json()).toMatchObject({ status: 'enabled' });
  });

  it('validates the registration: types, url scheme and credentials', async () => {
    for (const body of [
      { url: PUBLIC_URL, events: [] },
      { url: PUBLIC_URL, events: ['pet.eaten'] },
      { url: 'ftp://partner.example/hooks', events: ['*'] },
      { url: 'https://user:secret@partner.example/hooks', events: ['*'] },
      { url: `https://partner.example/${'a'.repeat(2050)}`, events: ['*'] },
      { url: 'not a url', events: ['*'] },
      { url: PUBLIC_URL, events: ['*'], secret: 'mine' },
    ]) {
      const response = await api.fetch('/v1/webhook-endpoints', json(body, { key: partner }));
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await errorBody(response)).code).toBe('invalid_request');
    }
  });
});

describe('how many endpoints a key and an organisation may register', () => {
  const register = (key: string) =>
    api.fetch('/v1/webhook-endpoints', json({ url: PUBLIC_URL, events: ['*'] }, { key }));

  it('refuses a key its 17th endpoint, and an organisation its 33rd, until one is deleted', async () => {
    const organization = await api.prisma.organization.create({ data: { name: 'Hooks Ltd' } });
    const keys = [];
    for (const name of ['Hooks one', 'Hooks two', 'Hooks three']) {
      keys.push(await api.createKey({ name, plan: 'business' }));
    }
    await api.prisma.apiKey.updateMany({
      where: { name: { in: ['Hooks one', 'Hooks two', 'Hooks three'] } },
      data: { organizationId: organization.id },
    });
    const [first = '', second = '', third = ''] = keys;
    const firstIds: string[] = [];
    for (let index = 0; index < 16; index += 1) {
      const response = await register(first);
      expect(response.status).toBe(201);
      firstIds.push(((await response.json()) as { id: string }).id);
    }
    const overKey = await register(first);
    expect(overKey.status).toBe(409);
    expect(await errorBody(overKey)).toEqual({
      code: 'webhook_endpoint_limit_reached',
      status: 409,
      message:
        'This key has 16 webhook endpoints, the most a key may have: delete one it no longer needs first.',
    });
    // Sixteen on another key of the organisation: 32 together, the organisation's most.
    for (let index = 0; index < 16; index += 1) {
      expect((await register(second)).status).toBe(201);
    }
    const overOrganization = await register(third);
    expect(overOrganization.status).toBe(409);
    expect(await errorBody(overOrganization)).toMatchObject({
      code: 'webhook_endpoint_limit_reached',
      message: expect.stringMatching(/^The keys of your organisation have 32 webhook endpoints/),
    });
    // A deleted endpoint frees its place.
    const deleted = await api.fetch(`/v1/webhook-endpoints/${firstIds[0]}`, {
      key: first,
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
    expect((await register(third)).status).toBe(201);
    expect((await register(first)).status).toBe(409);
  });
});

describe('signing secrets at rest', () => {
  it('keeps no secret in the clear: endpoints and idempotent answers are encrypted, replays still give the same secret', async () => {
    const create = () =>
      api.fetch(
        '/v1/webhook-endpoints',
        json(
          { url: PUBLIC_URL, events: ['*'] },
          { key: partner, headers: { 'Idempotency-Key': 'at-rest-1' } },
        ),
      );
    const first = await create();
    expect(first.status).toBe(201);
    const { id, secret } = (await first.json()) as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    const replay = await create();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { id: string; secret: string }).secret).toBe(secret);
    // Neither the endpoint's row nor the stored answer holds the secret's text.
    const raw = secret.slice('whsec_'.length);
    const rows = await api.prisma.$queryRawUnsafe<{ text: string }[]>(
      `SELECT row_to_json(w)::text AS text FROM webhook_endpoints w WHERE id = $1
       UNION ALL SELECT row_to_json(i)::text FROM idempotency_keys i WHERE key = 'at-rest-1'`,
      BigInt(id.slice('we_'.length)),
    );
    expect(rows.length).toBe(2);
    for (const row of rows) {
      expect(row.text).not.toContain(raw);
      expect(row.text).not.toContain('whsec_');
    }
  });
});

describe('the SSRF guard (private addresses not allowed)', () => {
  const literal = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]', '[::ffff:127.0.0.1]'];

  it('refuses a literal non-public address at registration', async () => {
    const others = [
      '0.0.0.0',
      '100.64.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '224.0.0.1',
      '255.255.255.255',
      '[::]',
      '[fe80::1]',
      '[fc00::1]',
      '[ff02::1]',
      '[::ffff:10.0.0.1]',
      '[::ffff:169.254.169.254]',
      // Every IPv6 form that reaches an IPv4 address is judged by that address: IPv4-mapped in
      // hex, IPv4-translated (SIIT) and NAT64.
      '[::ffff:7f00:1]',
      '[::ffff:0:7f00:1]',
      '[::ffff:0:10.1.2.3]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b::a9fe:a9fe]',
    ];
    for (const host of [...literal, ...others]) {
      const response = await api.fetch(
        '/v1/webhook-endpoints',
        json({ url: `http://${host}:8080/hooks`, events: ['*'] }, { key: partner }),
      );
      expect(response.status, host).toBe(400);
      expect((await errorBody(response)).message).toMatch(/must be a public address/);
    }
    // Public addresses are fine (nothing is sent to them here: no event type matches), a public
    // IPv4 address reached through NAT64 too.
    for (const host of ['8.8.8.8', '[2606:4700:4700::1111]', '[64:ff9b::808:808]']) {
      const response = await api.fetch(
        '/v1/webhook-endpoints',
        json({ url: `https://${host}/hooks`, events: ['order.cancelled'] }, { key: partner }),
      );
      expect(response.status, host).toBe(201);
    }
  });

  it('refuses to connect at delivery, in the same words for a name that resolves and one that does not', async () => {
    const port = new URL(hooks.url).port;
    // Registered by name: `localhost` resolves to the loopback when it is sent; a name under
    // `.invalid` resolves to nothing, ever (RFC 6761).
    const resolving = await createEndpoint(api, partner, {
      url: `http://localhost:${port}/hooks`,
      events: ['pet.created'],
    });
    const unresolving = await createEndpoint(api, partner, {
      url: `http://nowhere.invalid:${port}/hooks`,
      events: ['pet.created'],
    });
    // Literal addresses that got in some other way (an endpoint of an instance that allowed
    // them), an IPv4-translated loopback among them: refused at connect time too.
    const byAddress = [];
    for (const host of [...literal, '[::ffff:0:7f00:1]']) {
      const endpoint = await createEndpoint(api, partner, {
        url: PUBLIC_URL,
        events: ['pet.created'],
      });
      await api.prisma.webhookEndpoint.update({
        where: { id: BigInt(endpoint.id.slice(3)) },
        data: { url: `http://${host}:${port}/hooks` },
      });
      byAddress.push({ host, endpoint });
    }
    const pet = await api.fetch('/v1/pets', json({ name: 'Nosy', categoryId }, { key: partner }));
    expect(pet.status).toBe(201);

    const firstAttempt = async (endpointId: string) =>
      eventually(async () => {
        const response = await api.fetch(`/v1/webhook-endpoints/${endpointId}/deliveries`, {
          key: partner,
        });
        const [delivery] = (await response.json()) as TWebhookDelivery[];
        const attempt = delivery?.attempts[0];
        expect(attempt).toBeDefined();
        return attempt;
      });
    // What the owner reads cannot tell the two names apart, nor how long resolving took.
    const owners = {
      statusCode: null,
      durationMs: 0,
      error: 'the address is not allowed or not reachable',
      responseBody: null,
    };
    expect(await firstAttempt(resolving.id)).toMatchObject(owners);
    expect(await firstAttempt(unresolving.id)).toMatchObject(owners);
    for (const { host, endpoint } of byAddress) {
      expect(await firstAttempt(endpoint.id), host).toMatchObject(owners);
    }
    // The server's log says why, for the operator.
    const reasons = (endpointId: string) =>
      api.logs
        .filter((line) => line.event === 'webhook_attempt' && line.endpoint === endpointId.slice(3))
        .map((line) => String(line.reason));
    expect(reasons(resolving.id)[0]).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1)/);
    expect(reasons(unresolving.id)[0]).toMatch(/^could not connect: (ENOTFOUND|EAI_AGAIN)/);
    // Nothing reached the receiver on the loopback.
    expect(hooks.received).toEqual([]);
  });

  it("never sends an endpoint another key's order", async () => {
    // Private addresses are not allowed here: the partner's endpoint's deliveries are counted.
    const endpoint = await createEndpoint(api, partner, {
      url: PUBLIC_URL,
      events: ['order.placed'],
    });
    const created = await api.fetch(
      '/v1/pets',
      json({ name: 'Hops', categoryId }, { key: partner }),
    );
    const petId = ((await created.json()) as { id: number }).id;
    const mine = await placedOrder(api, partner, petId, {
      adopter: { name: 'Mo', email: 'mo.hooks@example.org' },
    });
    await placedOrder(api, otherPartner, petId, {
      adopter: { name: 'Ty', email: 'ty.hooks@example.org' },
    });
    const list = await eventually(async () => {
      const response = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, {
        key: partner,
      });
      const items = (await response.json()) as TWebhookDelivery[];
      expect(items.length).toBeGreaterThanOrEqual(1);
      return items;
    });
    // Give the worker a few more rounds to (wrongly) hand out the other key's order.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, {
      key: partner,
    });
    const items = (await again.json()) as TWebhookDelivery[];
    expect(items.map((item) => item.eventType)).toEqual(['order.placed']);
    expect(list[0]?.eventId).toBe(items[0]?.eventId);
    const event = await api.prisma.event.findUniqueOrThrow({
      where: { id: BigInt((items[0]?.eventId ?? 'evt_0').slice(4)) },
    });
    expect((event.data as { id: number }).id).toBe(mine.id);
  });
});
