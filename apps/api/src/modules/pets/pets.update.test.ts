import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';

/** updatePet (staff only) and the 403 of keys without the right, over real HTTP. */

const api = useTestApi();
let staff: string;
let partner: string;
let readOnly: string;
let dogs: number;
let cats: number;

const adopter = { name: 'Ada Lovelace', email: 'ada@example.org' };

const createPet = async (name: string, status = 'available') =>
  (await (
    await api.fetch('/v1/pets', json({ name, categoryId: dogs, status }, { key: staff }))
  ).json()) as { id: number };

const petStatus = async (id: number) =>
  (await api.prisma.pet.findUniqueOrThrow({ where: { id: BigInt(id) } })).status;

beforeAll(async () => {
  dogs = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  cats = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
  staff = await api.createKey({ name: 'store', role: 'staff' });
  partner = await api.createKey({ name: 'partner' });
  readOnly = await api.createKey({ name: 'kiosk', readOnly: true });
});

describe('updatePet', () => {
  it('lets a staff key change name, category and status, each alone or together', async () => {
    const pet = await createPet('Biscuit');
    const renamed = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ name: '  Biscuit II ' }, { method: 'PATCH', key: staff }),
    );
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({
      ...pet,
      id: pet.id,
      name: 'Biscuit II',
      categoryId: dogs,
      status: 'available',
      updatedAt: expect.any(String),
    });
    const moved = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ categoryId: cats, status: 'sold' }, { method: 'PATCH', key: staff }),
    );
    const soldBiscuit = { ...pet, name: 'Biscuit II', categoryId: cats, status: 'sold' };
    const movedBody = (await moved.json()) as { updatedAt: string };
    expect(movedBody).toEqual({ ...soldBiscuit, updatedAt: expect.any(String) });
    // The list shows the change: it is stored, not only answered.
    const listed = await api.fetch(`/v1/pets?id=${pet.id}`, { key: partner });
    expect(await listed.json()).toEqual([{ ...soldBiscuit, updatedAt: movedBody.updatedAt }]);
  });

  it('answers 404 for an unknown animal, 400 for bad fields and an unknown category', async () => {
    const unknown = await api.fetch(
      '/v1/pets/987654',
      json({ name: 'Ghost' }, { method: 'PATCH', key: staff }),
    );
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'not_found', status: 404 });

    const pet = await createPet('Pickle');
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ status: 'adopted' }, 'status'],
      [{ categoryId: 987_654 }, 'categoryId'],
      [{ id: 5 }, ''],
    ] as const) {
      const response = await api.fetch(
        `/v1/pets/${pet.id}`,
        json(body, { method: 'PATCH', key: staff }),
      );
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await errorBody(response);
      expect(error.code).toBe('invalid_request');
      if (field) {
        expect(error.details?.map((detail) => detail.field)).toContain(field);
      }
    }
    expect(await petStatus(pet.id)).toBe('available');
  });

  it('refuses a status that contradicts an open order with 409, and allows it once the order is closed', async () => {
    const pet = await createPet('Mochi');
    const placed = await api.fetch(
      '/v1/store/orders',
      json({ petId: pet.id, adopter }, { key: partner }),
    );
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as { id: number };
    const approve = await api.fetch(`/v1/store/orders/${order.id}/approve`, {
      method: 'POST',
      key: staff,
    });
    expect(approve.status).toBe(200);

    for (const status of ['available', 'sold']) {
      const response = await api.fetch(
        `/v1/pets/${pet.id}`,
        json({ status }, { method: 'PATCH', key: staff }),
      );
      expect(response.status, status).toBe(409);
      expect(await errorBody(response)).toMatchObject({ code: 'pet_status_conflict', status: 409 });
      expect(await petStatus(pet.id)).toBe('pending');
    }
    // Not a status change: allowed while the order is open.
    const renamed = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ name: 'Mochi the Brave', status: 'pending' }, { method: 'PATCH', key: staff }),
    );
    expect(renamed.status).toBe(200);

    await api.fetch(`/v1/store/orders/${order.id}/cancel`, { method: 'POST', key: staff });
    expect(await petStatus(pet.id)).toBe('available');
    const sold = await api.fetch(
      `/v1/pets/${pet.id}`,
      json({ status: 'sold' }, { method: 'PATCH', key: staff }),
    );
    expect(sold.status).toBe(200);
    expect(await petStatus(pet.id)).toBe('sold');
  });
});

describe('403 forbidden: a valid key without the right', () => {
  it('refuses updatePet to partner and read-only keys, before looking at the input', async () => {
    const pet = await createPet('Nutmeg');
    for (const [key, message] of [
      [partner, /needs a staff key; this is a partner key/],
      [readOnly, /needs a staff key/],
    ] as const) {
      // A valid body, an invalid one, and an unknown animal: always 403, nothing revealed.
      for (const [path, body] of [
        [`/v1/pets/${pet.id}`, { status: 'sold' }],
        [`/v1/pets/${pet.id}`, { status: 'adopted' }],
        ['/v1/pets/987654', { name: 'Ghost' }],
      ] as const) {
        const response = await api.fetch(path, json(body, { method: 'PATCH', key }));
        expect(response.status).toBe(403);
        const error = await errorBody(response);
        expect(error).toEqual({ code: 'forbidden', status: 403, message: expect.any(String) });
        expect(error.message).toMatch(message);
        expect(response.headers.get('x-request-id')).toBeTruthy();
      }
    }
    expect(await petStatus(pet.id)).toBe('available');
  });

  it('lets a read-only key read but not write', async () => {
    expect((await api.fetch('/v1/pets', { key: readOnly })).status).toBe(200);
    expect((await api.fetch('/v1/store/orders', { key: readOnly })).status).toBe(200);
    expect((await api.fetch('/v1/categories', { key: readOnly })).status).toBe(200);
    const before = await api.prisma.pet.count();
    const created = await api.fetch(
      '/v1/pets',
      json({ name: 'Nope', categoryId: dogs }, { key: readOnly }),
    );
    expect(created.status).toBe(403);
    expect(await errorBody(created)).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/read-only/),
    });
    const pet = await createPet('Clover');
    const ordered = await api.fetch(
      '/v1/store/orders',
      json({ petId: pet.id, adopter }, { key: readOnly }),
    );
    expect(ordered.status).toBe(403);
    expect(await api.prisma.pet.count()).toBe(before + 1);
    expect(await petStatus(pet.id)).toBe('available');
  });

  it('is counted by the rate limiter and carries its headers; 401 and 429 come first', async () => {
    const limited = await api.createKey({
      plan: 'enterprise',
      rateLimitPerMinute: 3,
      rateLimitPerDay: 100,
    });
    const remaining: (string | null)[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await api.fetch(
        '/v1/pets/1',
        json({ name: 'x' }, { method: 'PATCH', key: limited }),
      );
      expect(response.status).toBe(403);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const fourth = await api.fetch(
      '/v1/pets/1',
      json({ name: 'x' }, { method: 'PATCH', key: limited }),
    );
    expect(fourth.status).toBe(429);
    expect((await errorBody(fourth)).code).toBe('rate_limited');

    const anonymous = await api.fetch(
      '/v1/pets/1',
      json({ name: 'x' }, { method: 'PATCH', key: null }),
    );
    expect(anonymous.status).toBe(401);
  });
});
