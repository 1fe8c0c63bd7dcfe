import type { TPet } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';
import { expectedPet } from '../../test/pets';

/**
 * The details adopters ask about (issue 28) over real HTTP against PostgreSQL: sent on create,
 * changed, cleared and kept on update, present on every Pet (null when unknown, `[]` for no
 * colours), and every malformed value refused with a 400 that names the field.
 */

const api = useTestApi({ defaultKey: { role: 'staff' } });
let dogs: number;

beforeAll(async () => {
  dogs = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
});

const DETAILS = {
  goodWithChildren: true,
  goodWithDogs: false,
  goodWithCats: null,
  houseTrained: true,
  spayedNeutered: true,
  vaccinated: false,
  specialNeeds: true,
  specialNeedsNote: 'Deaf in one ear: approach where she can see you.',
  energyLevel: 'high',
  coatLength: 'short',
  colors: ['black', 'white', 'tan'],
  adoptionFee: { amount: 19500, currency: 'GBP' },
} satisfies Partial<TPet>;

const create = async (fields: Record<string, unknown>): Promise<TPet> => {
  const response = await api.fetch(
    '/v1/pets',
    json({ name: 'Juniper', categoryId: dogs, ...fields }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TPet;
};

const patch = (id: number, body: unknown) =>
  api.fetch(`/v1/pets/${id}`, json(body, { method: 'PATCH' }));

describe('createPet and updatePet with the details', () => {
  it('answers 201 with every detail as sent, and reads them back the same', async () => {
    const pet = await create({ ...DETAILS, specialNeedsNote: `  ${DETAILS.specialNeedsNote} ` });
    expect(pet).toEqual(
      expectedPet({ name: 'Juniper', categoryId: dogs, status: 'available', ...DETAILS }),
    );
    expect(await (await api.fetch(`/v1/pets?id=${pet.id}`)).json()).toEqual([pet]);
  });

  it('leaves them unknown when not sent: null, and no colours', async () => {
    const pet = await create({});
    expect(pet).toMatchObject({
      goodWithChildren: null,
      specialNeeds: null,
      specialNeedsNote: null,
      energyLevel: null,
      coatLength: null,
      colors: [],
      adoptionFee: null,
    });
  });

  it('takes a free adoption: a fee of 0', async () => {
    const pet = await create({ adoptionFee: { amount: 0, currency: 'EUR' } });
    expect(pet.adoptionFee).toEqual({ amount: 0, currency: 'EUR' });
  });

  it('changes the details named, clears those sent as null, keeps the others', async () => {
    const created = await create(DETAILS);
    const changed = await patch(created.id, {
      goodWithCats: true,
      energyLevel: 'low',
      colors: ['grey'],
      adoptionFee: { amount: 5000, currency: 'EUR' },
    });
    expect(changed.status).toBe(200);
    const after = (await changed.json()) as TPet;
    expect(after).toEqual({
      ...created,
      goodWithCats: true,
      energyLevel: 'low',
      colors: ['grey'],
      adoptionFee: { amount: 5000, currency: 'EUR' },
      updatedAt: expect.any(String),
    });

    const cleared = await patch(created.id, {
      goodWithChildren: null,
      specialNeeds: null,
      specialNeedsNote: null,
      colors: null,
      adoptionFee: null,
    });
    expect(cleared.status).toBe(200);
    const clearedBody = (await cleared.json()) as TPet;
    expect(clearedBody).toEqual({
      ...after,
      goodWithChildren: null,
      specialNeeds: null,
      specialNeedsNote: null,
      colors: [],
      adoptionFee: null,
      updatedAt: expect.any(String),
    });
    // An empty list clears the colours as null does; another field's change keeps them cleared.
    expect((await (await patch(created.id, { colors: [] })).json()) as TPet).toMatchObject({
      colors: [],
    });
    expect(await (await api.fetch(`/v1/pets?id=${created.id}`)).json()).toEqual([
      { ...clearedBody, updatedAt: expect.any(String) },
    ]);
  });

  it.each([
    [{ goodWithChildren: 'yes' }, 'goodWithChildren'],
    [{ goodWithDogs: 1 }, 'goodWithDogs'],
    [{ houseTrained: 'true' }, 'houseTrained'],
    [{ specialNeedsNote: '' }, 'specialNeedsNote'],
    [{ specialNeedsNote: 'n'.repeat(501) }, 'specialNeedsNote'],
    [{ energyLevel: 'hyper' }, 'energyLevel'],
    [{ coatLength: 'curly' }, 'coatLength'],
    [{ colors: 'black' }, 'colors'],
    [{ colors: ['black', 'white', 'tan', 'grey'] }, 'colors'],
    [{ colors: ['black', 'black'] }, 'colors'],
    [{ colors: ['mauve'] }, 'colors.0'],
    [{ adoptionFee: 95 }, 'adoptionFee'],
    [{ adoptionFee: { amount: 95.5, currency: 'EUR' } }, 'adoptionFee.amount'],
    [{ adoptionFee: { amount: -1, currency: 'EUR' } }, 'adoptionFee.amount'],
    [{ adoptionFee: { amount: 10_000_001, currency: 'EUR' } }, 'adoptionFee.amount'],
    [{ adoptionFee: { amount: 100, currency: 'eur' } }, 'adoptionFee.currency'],
    [{ adoptionFee: { amount: 100, currency: 'QQQ' } }, 'adoptionFee.currency'],
    [{ adoptionFee: { amount: 100 } }, 'adoptionFee.currency'],
    [{ adoptionFee: { amount: 100, currency: 'EUR', note: 'cash' } }, 'adoptionFee.note'],
  ])('refuses %j with a 400 naming the field, on create and on update', async (fields, field) => {
    const created = await api.fetch('/v1/pets', json({ name: 'Bad', categoryId: dogs, ...fields }));
    expect(created.status).toBe(400);
    const body = await errorBody(created);
    expect(body).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(body.details?.map((detail) => detail.field)).toEqual([field]);

    const pet = await create({});
    const updated = await patch(pet.id, fields);
    expect(updated.status).toBe(400);
    expect((await errorBody(updated)).details?.map((detail) => detail.field)).toEqual([field]);
  });
});
