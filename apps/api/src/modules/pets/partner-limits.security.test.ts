import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';
import { plainPng } from '../photos/photos.test-support';

/**
 * What a partner key may change, decided by the contract's `partnerLimits` and enforced
 * by AdmissionGuard: a partner publishes animals only as `available` (an animal `pending` or `sold`
 * with no order behind it misleads adopters), and changes the photos of the animals its own key
 * created only; a staff key may do both for any animal.
 */

const api = useTestApi();
let partnerA: string;
let partnerB: string;
let staff: string;
let categoryId: number;

beforeAll(async () => {
  [partnerA, partnerB, staff] = await Promise.all([
    api.createKey({ name: 'partner A' }),
    api.createKey({ name: 'partner B' }),
    api.createKey({ name: 'staff', role: 'staff' }),
  ]);
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Ferrets' } })).id);
});

const createPet = (key: string, extra: Record<string, unknown> = {}) =>
  api.fetch('/v1/pets', json({ name: 'Slinky', categoryId, ...extra }, { key }));

const expectForbidden = async (response: Response, message: RegExp) => {
  expect(response.status).toBe(403);
  const body = await errorBody(response);
  expect(body).toEqual({ code: 'forbidden', status: 403, message: expect.stringMatching(message) });
};

describe('createPet with a partner key', () => {
  it.each(['pending', 'sold'])('status %s: 403, nothing created', async (status) => {
    const before = await api.prisma.pet.count();
    await expectForbidden(await createPet(partnerA, { status }), /`status` only to `available`/);
    expect(await api.prisma.pet.count()).toBe(before);
  });

  it('status available, or none: 201, and the key that created it is recorded', async () => {
    for (const extra of [{ status: 'available' }, {}]) {
      const response = await createPet(partnerA, extra);
      expect(response.status).toBe(201);
      const { id, status } = (await response.json()) as { id: number; status: string };
      expect(status).toBe('available');
      const row = await api.prisma.pet.findUniqueOrThrow({ where: { id: BigInt(id) } });
      const key = await api.prisma.apiKey.findFirstOrThrow({ where: { name: 'partner A' } });
      expect(row.createdByApiKeyId).toBe(key.id);
    }
  });

  it('a staff key may publish an animal as pending or sold', async () => {
    for (const status of ['pending', 'sold']) {
      expect((await createPet(staff, { status })).status).toBe(201);
    }
  });
});

describe("the photos of another party's animal", () => {
  let petOfA: number;
  let seededPet: number;

  beforeAll(async () => {
    petOfA = ((await (await createPet(partnerA)).json()) as { id: number }).id;
    seededPet = Number(
      (await api.prisma.pet.create({ data: { name: 'Seeded', categoryId: BigInt(categoryId) } }))
        .id,
    );
  });

  const attempts = (petId: number, key: string) =>
    [
      ['deletePetPhoto', () => api.fetch(`/v1/pets/${petId}/photos/1`, { method: 'DELETE', key })],
      [
        'reorderPetPhotos',
        () =>
          api.fetch(
            `/v1/pets/${petId}/photos/order`,
            json({ photoIds: [] }, { method: 'PUT', key }),
          ),
      ],
      [
        'addPetPhoto',
        async () =>
          api.fetch(`/v1/pets/${petId}/photos`, {
            method: 'POST',
            key,
            headers: { 'content-type': 'image/png' },
            body: new Uint8Array(await plainPng(64, 64)),
          }),
      ],
    ] as const;

  it('another partner: 403 for upload, delete and reorder, before anything is read', async () => {
    for (const [name, attempt] of attempts(petOfA, partnerB)) {
      const response = await attempt();
      expect(response.status, name).toBe(403);
      await expectForbidden(response, /own animals only/);
    }
    expect(await api.prisma.petPhoto.count({ where: { petId: BigInt(petOfA) } })).toBe(0);
  });

  it('an animal no key created (the seed): 403 for a partner', async () => {
    for (const [, attempt] of attempts(seededPet, partnerA)) {
      await expectForbidden(await attempt(), /own animals only/);
    }
  });

  it('the creating partner and staff pass the check (their answers are the operation’s own)', async () => {
    for (const [petId, key] of [
      [petOfA, partnerA],
      [petOfA, staff],
      [seededPet, staff],
    ] as const) {
      const statuses = [];
      for (const [, attempt] of attempts(petId, key)) {
        const response = await attempt();
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      // delete: photo 1 (204, or 404 when it is not this animal's); reorder: 200; upload: 201.
      expect(statuses).toEqual([expect.toBeOneOf([204, 404]), 200, 201]);
    }
  });

  it('an unknown animal is still a 404 for a partner', async () => {
    const response = await api.fetch('/v1/pets/99999999/photos/1', {
      method: 'DELETE',
      key: partnerB,
    });
    expect(response.status).toBe(404);
  });
});
