import type { TPet } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/api-harness';
import { petOf, placedOrder, transition } from '../orders/orders.test-support';
import { plainPng, usePhotoApi } from '../photos/photos.test-support';

/**
 * A Pet's `updatedAt` moves with every write that changes what GET shows (the profile, the
 * photos, the status and count that orders change), and only then, over real HTTP.
 */

const photos = usePhotoApi('local');
const { api } = photos;
let staff: string;
let partner: string;

beforeAll(async () => {
  staff = await api.createKey({ name: 'store', role: 'staff' });
  partner = await api.createKey({ name: 'partner' });
});

const RFC3339_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Reads the animal, checks its stamp moved past `before` (or stayed, `moved` false). */
const expectStamp = async (petId: number, before: TPet, moved = true): Promise<TPet> => {
  const after = await petOf(api, partner, petId);
  expect(after.updatedAt).toMatch(RFC3339_UTC_MS);
  if (moved) {
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
  } else {
    expect(after.updatedAt).toBe(before.updatedAt);
  }
  return after;
};

describe('Pet.updatedAt', () => {
  it('is set on creation and moves with updatePet, but not with a PATCH that changes nothing', async () => {
    const petId = await photos.createPet('Biscuit');
    const created = await petOf(api, partner, petId);
    expect(created.updatedAt).toMatch(RFC3339_UTC_MS);
    const renamed = await api.fetch(
      `/v1/pets/${petId}`,
      json({ name: 'Biscuit II' }, { method: 'PATCH', key: staff }),
    );
    expect(renamed.status).toBe(200);
    const afterRename = await expectStamp(petId, created);
    expect(((await renamed.json()) as TPet).updatedAt).toBe(afterRename.updatedAt);
    const same = await api.fetch(
      `/v1/pets/${petId}`,
      json({ name: 'Biscuit II' }, { method: 'PATCH', key: staff }),
    );
    expect(same.status).toBe(200);
    await expectStamp(petId, afterRename, false);
  });

  it('moves when a photo is added, reordered and removed', async () => {
    const petId = await photos.createPet('Pickle');
    let pet = await petOf(api, partner, petId);
    const ids: number[] = [];
    for (const width of [640, 800]) {
      const upload = await photos.upload(petId, await plainPng(width, 400), 'image/png', {
        key: staff,
      });
      expect(upload.status).toBe(201);
      ids.push(((await upload.json()) as { id: number }).id);
      pet = await expectStamp(petId, pet);
    }
    const reorder = (order: number[]) =>
      api.fetch(
        `/v1/pets/${petId}/photos/order`,
        json({ photoIds: order }, { method: 'PUT', key: staff }),
      );
    expect((await reorder([...ids].reverse())).status).toBe(200);
    pet = await expectStamp(petId, pet);
    // The same order again changes nothing the animal shows.
    expect((await reorder([...ids].reverse())).status).toBe(200);
    pet = await expectStamp(petId, pet, false);
    const removed = await api.fetch(`/v1/pets/${petId}/photos/${ids[0]}`, {
      method: 'DELETE',
      key: staff,
    });
    expect(removed.status).toBe(204);
    await expectStamp(petId, pet);
  });

  it('moves when orders change its applications in review and its status', async () => {
    const petId = await photos.createPet('Mochi');
    let pet = await petOf(api, partner, petId);
    const order = await placedOrder(api, partner, petId);
    pet = await expectStamp(petId, pet);
    expect(pet.applicationsInReview).toBe(1);
    expect((await transition(api, staff, order.id, 'approve')).status).toBe(200);
    pet = await expectStamp(petId, pet);
    expect(pet.status).toBe('pending');
    expect((await transition(api, staff, order.id, 'complete')).status).toBe(200);
    pet = await expectStamp(petId, pet);
    expect(pet.status).toBe('sold');
  });

  it('moves an order too, with every change of its status', async () => {
    const petId = await photos.createPet('Nori');
    const order = await placedOrder(api, partner, petId);
    const approved = await transition(api, staff, order.id, 'approve');
    expect(approved.status).toBe(200);
    const changed = (await approved.json()) as { updatedAt: string };
    expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(order.updatedAt));
    expect(changed.updatedAt).toMatch(RFC3339_UTC_MS);
  });
});
