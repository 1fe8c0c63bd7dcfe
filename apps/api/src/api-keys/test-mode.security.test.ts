import { describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../test/api-harness';

/**
 * A key's prefix is its mode (docs/decisions.md, "Test keys on the live API"): production takes
 * live keys and test keys, and a test key there reads the store and manages its own webhook
 * endpoints but changes nothing else; staging takes test keys only, for everything.
 */

const ORDER = { name: 'Sam Lee', email: 'sam@example.com' };

describe('on production', () => {
  const api = useTestApi({ env: { JOBS_WORKER: 'off' } });

  it('a test key reads, says it is one, and manages its own webhook endpoints', async () => {
    const key = await api.createKey({ environment: 'staging' });
    expect(key.startsWith('pets_test_')).toBe(true);
    expect((await api.fetch('/v1/pets', { key })).status).toBe(200);
    const me = await api.fetch('/v1/me', { key });
    expect(await me.json()).toMatchObject({ mode: 'test', start: key.slice(0, 14) });

    const created = await api.fetch('/v1/webhook-endpoints', {
      key,
      ...json({ url: 'https://hooks.example.com/pets', events: ['pet.created'] }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await api.fetch(`/v1/webhook-endpoints/${id}`, { key, method: 'DELETE' })).status).toBe(
      204,
    );
  });

  it('a test key changes nothing in the live store: 403, before the input is read', async () => {
    // A staff test key: its role would allow every one of these writes.
    const key = await api.createKey({ environment: 'staging', role: 'staff' });
    const category = await api.prisma.category.create({ data: { name: 'Cats' } });
    const live = await api.createKey();
    const pet = (await (
      await api.fetch('/v1/pets', {
        key: live,
        ...json({ name: 'Miso', categoryId: Number(category.id) }),
      })
    ).json()) as { id: number };

    for (const [path, init] of [
      ['/v1/pets', json({ name: 'Rex', categoryId: Number(category.id) })],
      [`/v1/pets/${pet.id}`, { ...json({ name: 'Renamed' }), method: 'PATCH' }],
      ['/v1/store/orders', json({ ...ORDER, petId: pet.id })],
      ['/v1/pets', json({ not: 'even valid' })],
    ] as const) {
      const response = await api.fetch(path, { key, ...init });
      expect(response.status, path).toBe(403);
      const body = await errorBody(response);
      expect(body).toMatchObject({ code: 'forbidden', status: 403 });
      expect(body.message).toMatch(/test key/);
    }
    const unchanged = (await (await api.fetch(`/v1/pets/${pet.id}`, { key })).json()) as {
      name: string;
    };
    expect(unchanged.name).toBe('Miso');
  });

  it('a live key says it is one', async () => {
    const key = await api.createKey();
    expect(key.startsWith('pets_live_')).toBe(true);
    expect(await (await api.fetch('/v1/me', { key })).json()).toMatchObject({ mode: 'live' });
  });
});

describe('on staging', () => {
  const api = useTestApi({ env: { APP_ENV: 'staging', JOBS_WORKER: 'off' } });

  it('a live key is refused, with the reason', async () => {
    const key = await api.createKey({ environment: 'production' });
    const response = await api.fetch('/v1/pets', { key });
    expect(response.status).toBe(401);
    expect((await errorBody(response)).message).toMatch(/live key.*staging.*test keys/);
  });

  it('a test key does everything a key of its role may', async () => {
    const key = await api.createKey();
    expect(key.startsWith('pets_test_')).toBe(true);
    const category = await api.prisma.category.create({ data: { name: 'Dogs' } });
    const created = await api.fetch('/v1/pets', {
      key,
      ...json({ name: 'Rex', categoryId: Number(category.id) }),
    });
    expect(created.status).toBe(201);
    expect(await (await api.fetch('/v1/me', { key })).json()).toMatchObject({ mode: 'test' });
  });
});
