import type { TEvent, TPet, TWebhookDelivery, TWebhookEndpoint } from '@pets/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, useTestApi } from '../../test/api-harness';
import { placedOrder, transition } from '../orders/orders.test-support';
import {
  createEndpoint,
  eventually,
  startReceiver,
  type TReceived,
  type TReceiver,
} from './webhooks.test-support';

/**
 * Webhooks, over real HTTP both ways: the API on its own PostgreSQL, and a receiver on the
 * loopback (allowed here by WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_ADDRESSES). Signatures
 * are checked with the `standardwebhooks` package, a verifier we did not write. The retry
 * schedule runs a thousand times faster (WEBHOOK_RETRY_SCALE).
 */

const api = useTestApi({
  env: {
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_RETRY_SCALE: '0.001',
    WEBHOOK_POLL_INTERVAL_MS: '100',
  },
});
let staff: string;
let partner: string;
let otherPartner: string;
let categoryId: number;
const receivers: TReceiver[] = [];

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  staff = await api.createKey({ name: 'Front desk', role: 'staff', plan: 'business' });
  partner = await api.createKey({ name: 'Partner', plan: 'business' });
  otherPartner = await api.createKey({ name: 'Other partner', plan: 'business' });
});

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

const receiver = async (path?: string) => {
  const started = await startReceiver(path);
  receivers.push(started);
  return started;
};

const newPet = async (name: string): Promise<TPet> => {
  const response = await api.fetch('/v1/pets', json({ name, categoryId }, { key: staff }));
  expect(response.status).toBe(201);
  return (await response.json()) as TPet;
};

/** The events a receiver got, each verified with `secret` by standardwebhooks. */
const verified = (received: TReceived[], secret: string): TEvent[] =>
  received.map(({ headers, body }) => new Webhook(secret).verify(body, headers) as TEvent);

const ofResource = (events: TEvent[], kind: 'pet' | 'order', id: number) =>
  events.filter((event) => event.type.startsWith(`${kind}.`) && event.data.id === id);

const deliveries = async (key: string, endpointId: string, query = '') => {
  const response = await api.fetch(`/v1/webhook-endpoints/${endpointId}/deliveries${query}`, {
    key,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TWebhookDelivery[];
};

describe('webhooks', () => {
  it('registers an endpoint, answering its secret once', async () => {
    const hooks = await receiver();
    const created = await api.fetch(
      '/v1/webhook-endpoints',
      json({ url: hooks.url, events: ['pet.created'], description: 'Widget' }, { key: partner }),
    );
    expect(created.status).toBe(201);
    const endpoint = (await created.json()) as TWebhookEndpoint & { secret: string };
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^we_\d+$/),
      url: hooks.url,
      events: ['pet.created'],
      description: 'Widget',
      status: 'enabled',
      disabledReason: null,
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.headers.get('location')).toBe(`/v1/webhook-endpoints/${endpoint.id}`);

    const read = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}`, { key: partner });
    expect(read.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = endpoint;
    expect(await read.json()).toEqual(withoutSecret);
    const list = await api.fetch('/v1/webhook-endpoints', { key: partner });
    expect((await list.json()) as TWebhookEndpoint[]).toEqual([withoutSecret]);
    // Conditional like every GET: the ETag of the 200, sent back, is a 304.
    const etag = read.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const unchanged = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}`, {
      key: partner,
      headers: { 'if-none-match': etag },
    });
    expect(unchanged.status).toBe(304);
    // Encrypted at rest: the database never holds the secret itself.
    const row = await api.prisma.webhookEndpoint.findFirstOrThrow({
      where: { id: BigInt(endpoint.id.slice(3)) },
    });
    expect(row.secret).not.toContain(endpoint.secret.slice(6));
    expect(api.rawLogs()).not.toContain(endpoint.secret.slice(6));
  });

  it('delivers every event the key may read once, signed, in order, as GET /v1/events lists it', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, partner, { url: hooks.url, events: ['*'] });
    const pet = await newPet('Rex');
    const patched = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ breed: 'Collie' }, { key: staff, method: 'PATCH' }),
    );
    expect(patched.status).toBe(200);
    const own = await placedOrder(api, partner, pet.id, {
      adopter: { name: 'Ada', email: 'ada.hooks@example.org' },
    });
    const others = await placedOrder(api, otherPartner, pet.id, {
      adopter: { name: 'Bo', email: 'bo.hooks@example.org' },
    });
    expect((await transition(api, staff, own.id, 'approve')).status).toBe(200);

    const listed = (await (
      await api.fetch('/v1/events?limit=100', { key: partner })
    ).json()) as TEvent[];
    const expected = [
      ...ofResource(listed, 'pet', pet.id),
      ...ofResource(listed, 'order', own.id),
    ].sort((first, second) => Number(first.id.slice(4)) - Number(second.id.slice(4)));
    expect(expected.map((event) => event.type)).toEqual([
      'pet.created',
      'pet.updated',
      'order.placed',
      'order.approved',
      'pet.status_changed',
    ]);

    const received = await eventually(() => {
      const events = verified(hooks.received, endpoint.secret).filter(
        (event) =>
          (event.type.startsWith('pet.') && event.data.id === pet.id) ||
          event.type.startsWith('order.'),
      );
      expect(events).toHaveLength(expected.length);
      return events;
    });
    // Each once, as listed, in the order they were recorded; never the other key's order.
    expect(received).toEqual(expected);
    expect(ofResource(received, 'order', others.id)).toEqual([]);
    const first = hooks.received.find((request) =>
      request.body.includes(`"id":"${expected[0]?.id}"`),
    );
    expect(first?.headers['webhook-id']).toBe(expected[0]?.id);
    expect(first?.headers['content-type']).toBe('application/json');

    // A staff key's endpoint gets every order's events; an endpoint gets only its types.
    const staffHooks = await receiver();
    const staffEndpoint = await createEndpoint(api, staff, {
      url: staffHooks.url,
      events: ['order.placed'],
    });
    const pet2 = await newPet('Fido');
    const order2 = await placedOrder(api, otherPartner, pet2.id, {
      adopter: { name: 'Cy', email: 'cy.hooks@example.org' },
    });
    const staffReceived = await eventually(() => {
      const events = verified(staffHooks.received, staffEndpoint.secret);
      expect(events).toHaveLength(1);
      return events;
    });
    expect(staffReceived[0]).toMatchObject({ type: 'order.placed', data: { id: order2.id } });
  });

  it('retries while the receiver fails or is down, and delivers when it is back', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, partner, {
      url: hooks.url,
      events: ['pet.created'],
    });
    hooks.answer(500);
    const pet = await newPet('Patch');
    await eventually(async () => {
      const [delivery] = await deliveries(partner, endpoint.id);
      expect(delivery?.attempts.length).toBeGreaterThanOrEqual(2);
    });
    hooks.answer('closed');
    await eventually(async () => {
      const [delivery] = await deliveries(partner, endpoint.id);
      expect(delivery?.attempts.some((attempt) => attempt.statusCode === null)).toBe(true);
    });
    hooks.answer(200);
    const events = await eventually(() => {
      const got = verified(hooks.received, endpoint.secret);
      expect(got).toHaveLength(1);
      return got;
    });
    expect(events[0]).toMatchObject({ type: 'pet.created', data: { id: pet.id } });

    // The receiver has the event before the worker has recorded its answer: wait for the record.
    const delivery = await eventually(async () => {
      const [latest] = await deliveries(partner, endpoint.id);
      expect(latest).toMatchObject({
        eventId: events[0]?.id,
        eventType: 'pet.created',
        status: 'succeeded',
        nextAttemptAt: null,
      });
      return latest;
    });
    const attempts = delivery?.attempts ?? [];
    expect(attempts[0]).toMatchObject({
      statusCode: 500,
      error: 'the receiver answered 500, not 2xx',
      responseBody: 'receiver says 500',
    });
    expect(attempts.find((attempt) => attempt.statusCode === null)?.error).toMatch(
      /could not deliver/,
    );
    expect(attempts.at(-1)).toMatchObject({ statusCode: 200, error: null, responseBody: 'ok' });
    for (const attempt of attempts) {
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(attempt.at)).not.toBeNaN();
    }
    const succeeded = await deliveries(partner, endpoint.id, '?status=succeeded');
    expect(succeeded.map((item) => item.id)).toEqual([delivery?.id]);
    expect(await deliveries(partner, endpoint.id, '?status=failed')).toEqual([]);
  });

  it("does not hold other endpoints' deliveries back while one endpoint hangs", async () => {
    const stuck = await receiver();
    const prompt = await receiver();
    stuck.answer('hold');
    await createEndpoint(api, partner, { url: stuck.url, events: ['pet.created'] });
    const endpoint = await createEndpoint(api, partner, {
      url: prompt.url,
      events: ['pet.created'],
    });
    const first = await newPet('Stuck one');
    await eventually(() => expect(stuck.held()).toBe(1));
    const second = await newPet('Stuck two');
    // Well within the hung attempt's 10 s: the other endpoint gets both, in order.
    const events = await eventually(() => {
      const got = verified(prompt.received, endpoint.secret);
      expect(got).toHaveLength(2);
      return got;
    }, 5_000);
    expect(events.map((event) => event.data.id)).toEqual([first.id, second.id]);
    expect(stuck.held()).toBe(1);
    stuck.answer(200);
  });

  it('keeps a healthy endpoint prompt beside 30 endpoints that hang, before and after they fail', async () => {
    // 30 endpoints that take the request and never answer, on two keys (16 at most each).
    const hanging = await receiver();
    hanging.answer('hold');
    const owners = [
      await api.createKey({ name: 'Hangs one', plan: 'business' }),
      await api.createKey({ name: 'Hangs two', plan: 'business' }),
    ];
    const hung: string[] = [];
    for (let index = 0; index < 30; index += 1) {
      const created = await createEndpoint(api, owners[index % 2] ?? '', {
        url: `${hanging.url}/${index}`,
        events: ['pet.created'],
      });
      hung.push(created.id);
    }
    const prompt = await receiver();
    const endpoint = await createEndpoint(api, owners[0] ?? '', {
      url: prompt.url,
      events: ['pet.created'],
    });
    const expectPrompt = async (ids: number[]) =>
      // Well within one hung attempt's 10 s.
      eventually(() => {
        const got = verified(prompt.received, endpoint.secret).map((event) => event.data.id);
        expect(got).toEqual(ids);
      }, 5_000);
    const sent: number[] = [];
    for (const name of ['Prompt one', 'Prompt two']) {
      sent.push((await newPet(name)).id);
      await expectPrompt(sent);
    }
    // The hanging endpoints are being tried meanwhile: more of them at once than a process has
    // senders for endpoints in good standing.
    await eventually(() => expect(hanging.held()).toBeGreaterThan(16));
    // Once their attempts have timed out, they are failing endpoints with a backlog, each retried
    // and sent its next events from the share kept for failing endpoints: still prompt.
    await eventually(async () => {
      const failed = await api.prisma.webhookEndpointLease.count({
        where: {
          endpointId: { in: hung.map((id) => BigInt(id.slice(3))) },
          failingSince: { not: null },
        },
      });
      expect(failed).toBe(30);
    }, 20_000);
    for (const name of ['Prompt three', 'Prompt four']) {
      sent.push((await newPet(name)).id);
      await expectPrompt(sent);
    }
    // Out of the way of the tests after this one: their backlog is not theirs to wait for.
    await api.prisma.webhookEndpoint.deleteMany({
      where: { id: { in: [...hung, endpoint.id].map((id) => BigInt(id.slice(3))) } },
    });
  }, 40_000);

  it('signs with both secrets for a day after a rotation', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, partner, {
      url: hooks.url,
      events: ['pet.created'],
    });
    const rotated = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      key: partner,
      method: 'POST',
    });
    expect(rotated.status).toBe(200);
    const { secret } = (await rotated.json()) as { secret: string };
    expect(secret).not.toBe(endpoint.secret);
    const pet = await newPet('Twice');
    const [request] = await eventually(() => {
      expect(hooks.received).toHaveLength(1);
      return hooks.received;
    });
    expect(request?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const key of [endpoint.secret, secret]) {
      const event = verified(hooks.received, key)[0];
      expect(event).toMatchObject({ type: 'pet.created', data: { id: pet.id } });
    }
    // Once the overlap is over, only the new secret signs.
    await api.prisma.webhookEndpoint.update({
      where: { id: BigInt(endpoint.id.slice(3)) },
      data: { previousSecretExpiresAt: new Date(Date.now() - 1000) },
    });
    await newPet('Once');
    await eventually(() => expect(hooks.received).toHaveLength(2));
    const last = hooks.received[1] as TReceived;
    expect(last.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verified([last], secret)).toHaveLength(1);
    expect(() => verified([last], endpoint.secret)).toThrow();
  });

  it('sends a test event, lists it, and retries a delivery on request', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, partner, {
      url: hooks.url,
      events: ['pet.photo_added'],
    });
    const test = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}/test`, {
      key: partner,
      method: 'POST',
    });
    expect(test.status).toBe(202);
    const queued = (await test.json()) as TWebhookDelivery;
    expect(queued).toMatchObject({
      id: expect.stringMatching(/^whd_\d+$/),
      eventId: `test_${queued.id.slice(4)}`,
      eventType: 'webhook.test',
      status: 'pending',
    });
    const [received] = await eventually(() => {
      const got = verified(hooks.received, endpoint.secret);
      expect(got).toHaveLength(1);
      return got;
    });
    expect(received).toMatchObject({
      id: queued.eventId,
      type: 'webhook.test',
      data: { endpointId: endpoint.id },
    });
    expect(hooks.received[0]?.headers['webhook-id']).toBe(queued.eventId);

    const retried = await api.fetch(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${queued.id}/retry`,
      { key: partner, method: 'POST' },
    );
    expect(retried.status).toBe(202);
    await eventually(() => expect(hooks.received).toHaveLength(2));
    // The same message again: the receiver recognises it by its webhook-id.
    expect(hooks.received[1]?.headers['webhook-id']).toBe(queued.eventId);
    // Recorded a moment after the receiver has it.
    await eventually(async () => {
      const [delivery] = await deliveries(partner, endpoint.id);
      expect(delivery?.status).toBe('succeeded');
      expect(delivery?.attempts).toHaveLength(2);
    });

    const missing = await api.fetch(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/whd_999999/retry`,
      { key: partner, method: 'POST' },
    );
    expect(missing.status).toBe(404);
  });

  it('changes and deletes an endpoint; a disabled one receives nothing', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, partner, {
      url: hooks.url,
      events: ['pet.created'],
      description: 'Old',
    });
    const patched = await api.fetch(
      `/v1/webhook-endpoints/${endpoint.id}`,
      json({ description: null, status: 'disabled' }, { key: partner, method: 'PATCH' }),
    );
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      description: null,
      status: 'disabled',
      disabledReason: 'Disabled by its key.',
    });
    await newPet('Unheard');
    // Enabling starts from the oldest transaction still running on the server (its snapshot's
    // xmin), so that no event of one in flight is skipped; another test file's transactions on
    // the same server can hold that back. Wait until every transaction begun before this event's
    // has ended: from then on an event recorded while disabled is behind the new start.
    await eventually(async () => {
      const { rows } = await api.pool.query<{ settled: boolean }>(
        `SELECT max(xact_id) < pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS settled
           FROM events`,
      );
      expect(rows[0]?.settled).toBe(true);
    });
    const enabled = await api.fetch(
      `/v1/webhook-endpoints/${endpoint.id}`,
      json(
        { status: 'enabled', events: ['pet.created', 'pet.updated'] },
        { key: partner, method: 'PATCH' },
      ),
    );
    expect(await enabled.json()).toMatchObject({
      status: 'enabled',
      disabledReason: null,
      events: ['pet.created', 'pet.updated'],
    });
    const heard = await newPet('Heard');
    await eventually(() => expect(hooks.received).toHaveLength(1));
    expect(verified(hooks.received, endpoint.secret)[0]).toMatchObject({
      data: { id: heard.id },
    });

    const deleted = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}`, {
      key: partner,
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
    const gone = await api.fetch(`/v1/webhook-endpoints/${endpoint.id}`, { key: partner });
    expect(gone.status).toBe(404);
  });
});
