import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorBody, json, startTestApi, type TTestApi, useTestApi } from '../test/api-harness';

/**
 * Idempotency-Key over real HTTP on real PostgreSQL: retries get the first answer and nothing is
 * written twice, whatever the timing; different requests, callers and failures as documented
 * (docs/decisions.md, "Idempotent requests").
 */

type TPetBody = { id: number; name: string; categoryId: number; status: string };

/** What a client compares between two answers. */
const answerOf = async (response: Response) => ({
  status: response.status,
  location: response.headers.get('location'),
  contentType: response.headers.get('content-type'),
  body: await response.text(),
});

const withKey = (key: string, body: unknown, apiKey?: string) =>
  json(body, { headers: { 'Idempotency-Key': key }, ...(apiKey ? { key: apiKey } : {}) });

const countPets = async (api: TTestApi, name: string) => api.prisma.pet.count({ where: { name } });
const countEntries = (api: TTestApi) => api.prisma.idempotencyKey.count();

/** Retries wait for the first request up to 5 s in production; longer here, for a loaded machine. */
const PATIENT = { waitMs: 15_000 };

describe('Idempotency-Key on createPet', () => {
  const api = useTestApi({ idempotency: PATIENT });
  let categoryId: number;

  beforeAll(async () => {
    categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  });

  it('20 simultaneous retries over two instances: one animal, 20 identical answers, 19 replays', async () => {
    const second = await startTestApi({ database: api.database, idempotency: PATIENT });
    try {
      const apiKey = await api.createKey();
      const key = randomUUID();
      const body = { name: 'Rex the only one', categoryId };
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 ? second : api).fetch('/v1/pets', withKey(key, body, apiKey)),
        ),
      );
      const answers = await Promise.all(responses.map(answerOf));
      expect(answers[0]?.status).toBe(201);
      expect(answers[0]?.location).toMatch(/^\/v1\/pets\/\d+$/);
      for (const answer of answers) {
        expect(answer).toEqual(answers[0]);
      }
      const created = JSON.parse(answers[0]?.body ?? '') as TPetBody;
      expect(answers[0]?.location).toBe(`/v1/pets/${created.id}`);
      expect(await countPets(api, body.name)).toBe(1);
      const replayed = responses.map((response) => response.headers.get('idempotent-replayed'));
      expect(replayed.filter((value) => value === 'true')).toHaveLength(19);
      expect(replayed.filter((value) => value === null)).toHaveLength(1);
      // Every retry is still a request of its own: counted, with its own id.
      const ids = new Set(responses.map((response) => response.headers.get('x-request-id')));
      expect(ids.size).toBe(20);
      for (const response of responses) {
        expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      }
    } finally {
      await second.close();
    }
  });

  it('replays to a later retry, the same body in another key order and spacing', async () => {
    const key = randomUUID();
    const first = await api.fetch('/v1/pets', withKey(key, { name: 'Bella', categoryId }));
    const firstAnswer = await answerOf(first);
    expect(firstAnswer.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await api.fetch(
      '/v1/pets',
      withKey(key, `{ "categoryId": ${categoryId},   "name": "Bella" }`),
    );
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await answerOf(retry)).toEqual(firstAnswer);
    expect(await countPets(api, 'Bella')).toBe(1);
  });

  it('the same key with a different body: 422 idempotency_key_reused, nothing created', async () => {
    const key = randomUUID();
    const first = await api.fetch('/v1/pets', withKey(key, { name: 'Max', categoryId }));
    const firstAnswer = await answerOf(first);
    for (const other of [
      { name: 'Maximilian', categoryId },
      { name: 'Max', categoryId, breed: 'Boxer' },
    ]) {
      const reused = await api.fetch('/v1/pets', withKey(key, other));
      expect(reused.status).toBe(422);
      expect(reused.headers.get('idempotent-replayed')).toBeNull();
      expect(reused.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      const error = await errorBody(reused);
      expect(error).toEqual({
        code: 'idempotency_key_reused',
        status: 422,
        message: expect.stringMatching(/different request/),
      });
    }
    expect(await countPets(api, 'Maximilian')).toBe(0);
    expect(await api.prisma.pet.count({ where: { name: 'Max', breed: 'Boxer' } })).toBe(0);
    // The first answer is still what the original request gets.
    const retry = await api.fetch('/v1/pets', withKey(key, { name: 'Max', categoryId }));
    expect(await answerOf(retry)).toEqual(firstAnswer);
  });

  it('keys of different callers are independent', async () => {
    const [alice, bob] = [await api.createKey(), await api.createKey()];
    const key = 'order-2026-11-23-0001';
    const body = { name: 'Shared key', categoryId };
    const answers = [
      await api.fetch('/v1/pets', withKey(key, body, alice)),
      await api.fetch('/v1/pets', withKey(key, body, bob)),
      // A different body under the same key is no conflict for another caller either.
      await api.fetch('/v1/pets', withKey(key, { ...body, name: 'Other' }, await api.createKey())),
    ];
    expect(answers.map((response) => response.status)).toEqual([201, 201, 201]);
    expect(answers.map((response) => response.headers.get('idempotent-replayed'))).toEqual([
      null,
      null,
      null,
    ]);
    expect(await countPets(api, 'Shared key')).toBe(2);
  });

  it('refuses a key that is empty, too long or not printable: 400 on header.Idempotency-Key', async () => {
    const before = await countEntries(api);
    for (const [key, message] of [
      ['', /must not be empty/],
      ['k'.repeat(256), /at most 255 characters/],
      ['tab\there', /printable/],
      ['caf\u00e9', /printable/],
    ] as const) {
      const response = await api.fetch('/v1/pets', withKey(key, { name: 'Nope', categoryId }));
      expect(response.status, key).toBe(400);
      const error = await errorBody(response);
      expect(error).toMatchObject({ code: 'invalid_request', status: 400 });
      expect(error.details).toEqual([
        { field: 'header.Idempotency-Key', message: expect.stringMatching(message) },
      ]);
    }
    expect(await countPets(api, 'Nope')).toBe(0);
    expect(await countEntries(api)).toBe(before);
    const longest = await api.fetch(
      '/v1/pets',
      withKey('k'.repeat(255), { name: 'Ok', categoryId }),
    );
    expect(longest.status).toBe(201);
  });

  it('does not keep a request its input kept from running: the corrected retry runs', async () => {
    const key = randomUUID();
    const before = await countEntries(api);
    const invalid = await api.fetch('/v1/pets', withKey(key, { name: '', categoryId }));
    expect(invalid.status).toBe(400);
    expect((await errorBody(invalid)).details?.[0]?.field).toBe('name');
    expect(await countEntries(api)).toBe(before);
    const corrected = await api.fetch('/v1/pets', withKey(key, { name: 'Fixed', categoryId }));
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it("keeps the operation's own 4xx and replays it, even once the cause is gone", async () => {
    const key = randomUUID();
    const missing = categoryId + 1000;
    const body = { name: 'Lost', categoryId: missing };
    const first = await api.fetch('/v1/pets', withKey(key, body));
    const firstAnswer = await answerOf(first);
    expect(firstAnswer.status).toBe(400);
    expect(JSON.parse(firstAnswer.body)).toMatchObject({ details: [{ field: 'categoryId' }] });
    await api.prisma.category.create({ data: { id: BigInt(missing), name: 'Late' } });
    const retry = await api.fetch('/v1/pets', withKey(key, body));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await answerOf(retry)).toEqual(firstAnswer);
    expect(await countPets(api, 'Lost')).toBe(0);
  });

  it('does not keep a 5xx: the key is released and a retry runs the operation', async () => {
    const key = randomUUID();
    const body = { name: 'After the outage', categoryId };
    await api.prisma.$executeRawUnsafe('ALTER TABLE pets RENAME COLUMN name TO name_broken');
    try {
      const failed = await api.fetch('/v1/pets', withKey(key, body));
      expect(failed.status).toBe(500);
    } finally {
      await api.prisma.$executeRawUnsafe('ALTER TABLE pets RENAME COLUMN name_broken TO name');
    }
    const retry = await api.fetch('/v1/pets', withKey(key, body));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await countPets(api, body.name)).toBe(1);
  });

  it('leaves requests without the header, and GETs with it, exactly as before', async () => {
    const before = await countEntries(api);
    const body = { name: 'Twice', categoryId };
    const [one, two] = [
      await api.fetch('/v1/pets', json(body)),
      await api.fetch('/v1/pets', json(body)),
    ];
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.headers.get('idempotent-replayed')).toBeNull();
    expect(two.headers.get('idempotent-replayed')).toBeNull();
    expect(await countPets(api, 'Twice')).toBe(2);
    const list = await api.fetch('/v1/pets?limit=1', {
      headers: { 'Idempotency-Key': 'a-get-ignores-it' },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('idempotent-replayed')).toBeNull();
    expect(await countEntries(api)).toBe(before);
  });

  it('a retry still needs a valid key, and is counted by the rate limiter', async () => {
    const key = randomUUID();
    const body = { name: 'Guarded', categoryId };
    const first = await api.fetch('/v1/pets', withKey(key, body));
    expect(first.status).toBe(201);
    const retry = await api.fetch('/v1/pets', withKey(key, body));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(Number(retry.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
    const anonymous = await api.fetch('/v1/pets', { ...withKey(key, body), key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('idempotent-replayed')).toBeNull();
    expect(await countPets(api, 'Guarded')).toBe(1);
  });
});

describe('a request still in progress', () => {
  const api = useTestApi({ idempotency: { waitMs: 300 } });
  let categoryId: number;
  let blocker: Client;

  beforeAll(async () => {
    categoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
    blocker = new Client({ connectionString: api.database.url });
    blocker.on('error', () => undefined);
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker.end();
  });

  it('makes a retry wait, then 409 idempotency_key_in_use; never a second write', async () => {
    const key = randomUUID();
    const body = { name: 'Slow', categoryId };
    // Holds every insert into pets until the test lets go: the first request stays in progress.
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE pets IN EXCLUSIVE MODE');
    const first = api.fetch('/v1/pets', withKey(key, body));
    await vi.waitFor(async () => expect(await countEntries(api)).toBe(1), { timeout: 10_000 });
    const retry = await api.fetch('/v1/pets', withKey(key, body));
    expect(retry.status).toBe(409);
    expect(await errorBody(retry)).toEqual({
      code: 'idempotency_key_in_use',
      status: 409,
      message: expect.stringMatching(/still in progress/),
    });
    // A different body is refused at once, even while the first is running.
    const reused = await api.fetch('/v1/pets', withKey(key, { ...body, name: 'Other' }));
    expect(reused.status).toBe(422);
    await blocker.query('COMMIT');
    const firstAnswer = await answerOf(await first);
    expect(firstAnswer.status).toBe(201);
    const later = await api.fetch('/v1/pets', withKey(key, body));
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(await answerOf(later)).toEqual(firstAnswer);
    expect(await countPets(api, 'Slow')).toBe(1);
  });
});

describe('expiry', () => {
  let clock = Date.parse('2026-11-23T12:00:00Z');
  const DAY = 24 * 3_600_000;
  const api = useTestApi({ idempotency: { now: () => clock, sweepIntervalMs: 50 } });
  let categoryId: number;

  beforeAll(async () => {
    categoryId = Number((await api.prisma.category.create({ data: { name: 'Birds' } })).id);
  });

  it('replays for 24 hours, then forgets the key; the sweeper deletes the stale rows', async () => {
    const key = randomUUID();
    const first = await api.fetch('/v1/pets', withKey(key, { name: 'Tweety', categoryId }));
    expect(first.status).toBe(201);
    const entry = await api.prisma.idempotencyKey.findFirstOrThrow({ where: { key } });
    expect(entry.expiresAt.getTime() - clock).toBe(DAY);

    clock += DAY - 60_000;
    const retry = await api.fetch('/v1/pets', withKey(key, { name: 'Tweety', categoryId }));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await countPets(api, 'Tweety')).toBe(1);

    clock += 120_000;
    // Forgotten: the key is free again, even for another body.
    const reuse = await api.fetch('/v1/pets', withKey(key, { name: 'Polly', categoryId }));
    expect(reuse.status).toBe(201);
    expect(reuse.headers.get('idempotent-replayed')).toBeNull();

    // Entries of other callers, left to expire: the sweeper removes them, the live one stays.
    const other = await api.createKey();
    for (const name of ['a', 'b', 'c']) {
      await api.fetch('/v1/pets', withKey(`old-${name}`, { name, categoryId }, other));
    }
    expect(await countEntries(api)).toBe(4);
    clock += DAY + 1;
    await api.fetch('/v1/pets', withKey('fresh', { name: 'Fresh', categoryId }, other));
    await vi.waitFor(async () => expect(await countEntries(api)).toBe(1), { timeout: 10_000 });
    expect((await api.prisma.idempotencyKey.findFirstOrThrow()).key).toBe('fresh');
  });
});
