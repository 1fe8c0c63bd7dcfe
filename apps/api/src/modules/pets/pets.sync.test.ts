import type { TPet } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';
import { nextPageOf, walkPages } from '../../test/pages';

/**
 * listPets' `updatedSince` and `sort=updatedAt`: the incremental sync of a partner, over real
 * HTTP, while another client keeps writing.
 */

const api = useTestApi();
let staff: string;
let partner: string;
let dogs: number;

beforeAll(async () => {
  dogs = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  staff = await api.createKey({ name: 'store', role: 'staff' });
  partner = await api.createKey({ name: 'partner' });
});

const createPet = async (name: string): Promise<TPet> => {
  const response = await api.fetch('/v1/pets', json({ name, categoryId: dogs }, { key: staff }));
  expect(response.status).toBe(201);
  return (await response.json()) as TPet;
};

const rename = async (id: number, name: string): Promise<TPet> => {
  const response = await api.fetch(
    `/v1/pets/${id}`,
    json({ name }, { method: 'PATCH', key: staff }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as TPet;
};

const walk = (first: string, between?: () => Promise<void>) =>
  walkPages<TPet>(api, partner, first, between);
const nextOf = (response: Response) => nextPageOf(api, response);

describe('listPets: updatedSince and sort=updatedAt', () => {
  it('lists the animals changed at or after the instant, oldest change first, ties by id', async () => {
    const [a, b, c] = [await createPet('A'), await createPet('B'), await createPet('C')];
    const since = new Date(Date.parse(b.updatedAt)).toISOString();
    const renamedA = await rename(a.id, 'A2');
    const all = await walk(`/v1/pets?sort=updatedAt&updatedSince=${since}&limit=1`);
    const ids = all.map((pet) => pet.id);
    // A, created before T, is in it once: as it was renamed after T, at the end.
    expect(ids).toEqual([b.id, c.id, a.id]);
    expect(all.at(-1)?.name).toBe('A2');
    for (let index = 1; index < all.length; index++) {
      const [previous, current] = [all[index - 1] as TPet, all[index] as TPet];
      expect(
        previous.updatedAt < current.updatedAt ||
          (previous.updatedAt === current.updatedAt && previous.id < current.id),
      ).toBe(true);
    }
    // An offset is read as the same instant.
    const offset = await api.fetch(
      `/v1/pets?sort=updatedAt&updatedSince=${encodeURIComponent(renamedA.updatedAt.replace('Z', '+00:00'))}`,
      { key: partner },
    );
    expect(((await offset.json()) as TPet[]).map((pet) => pet.id)).toContain(a.id);
    // The default order stays newest first.
    const newest = await api.fetch(`/v1/pets?updatedSince=${since}`, { key: partner });
    const newestIds = ((await newest.json()) as TPet[]).map((pet) => pet.id);
    expect(newestIds).toEqual([...newestIds].sort((x, y) => y - x));
  });

  it('refuses an updatedSince that is not RFC 3339, and a cursor sent with another one', async () => {
    for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '2026-11-27']) {
      const response = await api.fetch(`/v1/pets?updatedSince=${bad}`, { key: partner });
      expect(response.status, bad).toBe(400);
      expect((await errorBody(response)).code).toBe('invalid_request');
    }
    await createPet('D');
    await createPet('E');
    const first = await api.fetch('/v1/pets?sort=updatedAt&limit=1', { key: partner });
    const next = nextOf(first);
    expect(next).not.toBeNull();
    const cursor = new URL(next as string, api.baseUrl).searchParams.get('cursor');
    const other = await api.fetch(`/v1/pets?cursor=${cursor}&updatedSince=2020-01-01T00:00:00Z`, {
      key: partner,
    });
    expect(other.status).toBe(400);
    // The cursor alone continues the same list, in the same order.
    const alone = await api.fetch(`/v1/pets?cursor=${cursor}&limit=1`, { key: partner });
    expect(alone.status).toBe(200);
  });

  it('sees every animal changed since T at least once, while another client keeps writing', async () => {
    const pets: TPet[] = [];
    for (let index = 0; index < 30; index++) {
      pets.push(await createPet(`Walk ${index}`));
    }
    const since = (pets[0] as TPet).updatedAt;
    let round = 0;
    const changed = new Set<number>();
    // After each page, another client renames animals both behind and ahead of the walk.
    const writer = async () => {
      for (const pet of [pets[round % 30], pets[(round * 7 + 3) % 30]] as TPet[]) {
        await rename(pet.id, `Walk ${pet.id} r${round}`);
        changed.add(pet.id);
      }
      round++;
    };
    const seen = await walk(`/v1/pets?sort=updatedAt&updatedSince=${since}&limit=4`, writer);
    const seenIds = new Set(seen.map((pet) => pet.id));
    // Never missed: every animal of the walk's range, changed or not.
    for (const pet of pets) {
      expect(seenIds.has(pet.id), `animal ${pet.id}`).toBe(true);
    }
    // A change the walk had passed moved the animal to the end: seen again, with its last state.
    expect(seen.length).toBeGreaterThan(pets.length);
    const final = (await walk(`/v1/pets?sort=updatedAt&updatedSince=${since}&limit=100`)).filter(
      (pet) => pets.some((created) => created.id === pet.id),
    );
    const lastSeen = new Map(seen.map((pet) => [pet.id, pet]));
    for (const pet of final) {
      // Changes made after the walk's last page are the next sync's; before it, the walk has them.
      if (Date.parse(pet.updatedAt) <= Date.parse((seen[seen.length - 1] as TPet).updatedAt)) {
        expect(lastSeen.get(pet.id)?.name, `animal ${pet.id}`).toBe(pet.name);
      }
    }
    expect(changed.size).toBeGreaterThan(0);
  });
});
