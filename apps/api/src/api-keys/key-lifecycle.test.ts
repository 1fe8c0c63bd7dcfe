import { hashApiKey } from '@pets/store/api-key-format';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPet, placedOrder } from '../modules/orders/orders.test-support';
import { errorBody, useTestApi } from '../test/api-harness';
import { ApiKeysService } from './api-keys.service';

/**
 * A key's lifecycle over real HTTP: a roll gives the same key (its id, and so its orders) a new
 * secret while the old one works for an overlap; an expiry ends a key. The key cache's clocks (the
 * monotonic one of its ages and the wall clock of expiries) skip time instead of waiting.
 */

// The overlap's end is set by the database's clock: the overlaps below outlast the time skipped.
let skippedMs = 0;
const api = useTestApi({
  keyCache: {
    now: () => performance.now() + skippedMs,
    wallNow: () => Date.now() + skippedMs,
  },
});
const HOUR_MS = 3_600_000;
let staff: string;
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Ferrets' } })).id);
  staff = await api.createKey({ name: 'store', role: 'staff' });
});

const statusOf = async (key: string, path = '/v1/me') => {
  const response = await api.fetch(path, { key });
  await response.arrayBuffer();
  return response.status;
};

const refusal = async (key: string) => {
  const response = await api.fetch('/v1/me', { key });
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer realm="pets"');
  const body = await errorBody(response);
  expect(body).toMatchObject({ code: 'unauthorized', status: 401 });
  return body.message;
};

/** The key cache's wall clock: an expiry is set from it, since it is what the expiry is checked on. */
const appNow = () => Date.now() + skippedMs;

/** Moves both of the key cache's clocks forward. */
const skip = (ms: number) => {
  skippedMs += ms;
};

const idOf = async (key: string) =>
  (await api.prisma.apiKey.findFirstOrThrow({ where: { hash: hashApiKey(key) } })).id;

describe('rolling a key', () => {
  it('with an overlap: both secrets work, the key (and its orders) stays, then the old one is refused', async () => {
    const oldKey = await api.createKey({ name: 'Shelter app' });
    const id = await idOf(oldKey);
    const petId = await createPet(api, staff, categoryId, 'Bandit');
    const order = await placedOrder(api, oldKey, petId);

    const { key: newKey, apiKey } = await api.apiKeys.roll(id.toString(), 3_600);
    expect(apiKey.id).toBe(id);
    expect(newKey).not.toBe(oldKey);
    expect(await statusOf(oldKey)).toBe(200);
    expect(await statusOf(newKey)).toBe(200);
    const me = (await (await api.fetch('/v1/me', { key: newKey })).json()) as { start: string };
    expect(me.start).toBe(newKey.slice(0, 14));
    // The same key: its order is listed and readable with the new secret.
    const listed = (await (await api.fetch('/v1/store/orders', { key: newKey })).json()) as {
      id: number;
    }[];
    expect(listed.map((each) => each.id)).toContain(order.id);
    expect(await statusOf(newKey, `/v1/store/orders/${order.id}`)).toBe(200);

    // Half the overlap later, the old secret still works.
    skip(HOUR_MS / 2);
    expect(await statusOf(oldKey)).toBe(200);
    // Past the overlap (and the cache's 5 s), it is refused, and says why.
    skip(HOUR_MS / 2 + 5_000);
    expect(await refusal(oldKey)).toBe('This API key was rolled; use its replacement.');
    expect(await statusOf(newKey)).toBe(200);
  });

  it('without an overlap: the old secret is refused within the cache delay, at once where it is evicted', async () => {
    const oldKey = await api.createKey({ name: 'Leaked' });
    expect(await statusOf(oldKey)).toBe(200);
    const { key: newKey, previousHash } = await api.apiKeys.roll(
      (await idOf(oldKey)).toString(),
      0,
    );
    expect(previousHash).toBe(hashApiKey(oldKey));
    // The process that rolled it forgets the old secret's cached answer: refused at once.
    api.app.get(ApiKeysService).evict(previousHash);
    expect(await refusal(oldKey)).toBe('This API key was rolled; use its replacement.');
    expect(await statusOf(newKey)).toBe(200);
  });

  it('again during an overlap: the older secret ends at once, the previous one keeps its overlap', async () => {
    const first = await api.createKey({ name: 'Twice' });
    const id = (await idOf(first)).toString();
    expect(await statusOf(first)).toBe(200);
    const { key: second } = await api.apiKeys.roll(id, 86_400);
    const { key: third } = await api.apiKeys.roll(id, 86_400);
    skip(5_000);
    expect(await refusal(first)).toBe('Invalid API key.');
    expect(await statusOf(second)).toBe(200);
    expect(await statusOf(third)).toBe(200);
  });

  it('revoking a rolled key ends both secrets', async () => {
    const oldKey = await api.createKey({ name: 'Revoked after a roll' });
    const id = (await idOf(oldKey)).toString();
    const { key: newKey } = await api.apiKeys.roll(id, 86_400);
    expect(await statusOf(oldKey)).toBe(200);
    await api.apiKeys.revoke(id);
    skip(5_000);
    expect(await refusal(oldKey)).toBe('This API key has been revoked.');
    expect(await refusal(newKey)).toBe('This API key has been revoked.');
  });
});

describe('an expiring key', () => {
  it('works until its expiry, then gets 401 "This API key has expired."', async () => {
    const key = await api.createKey({
      name: 'Campaign',
      expiresAt: new Date(appNow() + 2 * HOUR_MS),
    });
    expect(await statusOf(key)).toBe(200);
    skip(HOUR_MS);
    expect(await statusOf(key)).toBe(200);
    skip(HOUR_MS + 1_000);
    expect(await refusal(key)).toBe('This API key has expired.');
  });

  it('refuses, as expired, an old secret whose overlap outlasts the key', async () => {
    const key = await api.createKey({
      name: 'Short-lived',
      expiresAt: new Date(appNow() + HOUR_MS),
    });
    const { key: newKey } = await api.apiKeys.roll((await idOf(key)).toString(), 7 * 86_400);
    expect(await statusOf(key)).toBe(200);
    skip(HOUR_MS + 5_000);
    expect(await refusal(key)).toBe('This API key has expired.');
    expect(await refusal(newKey)).toBe('This API key has expired.');
  });
});
