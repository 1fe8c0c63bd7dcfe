import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrismaClient } from './client';
import { SEED_CATALOGUE, seedDatabase } from './seed';
import { testDatabases } from './testing';

const databases = testDatabases();
const freshPrisma = async () => (await databases.open()).prisma;

afterAll(() => databases.dropAll());

const catalogueSize = Object.values(SEED_CATALOGUE).flat().length;

describe('seedDatabase', () => {
  let prisma: TPrismaClient;
  beforeAll(async () => {
    prisma = await freshPrisma();
  });

  it('adds the categories of an adoption store and a few dozen animals of every status', async () => {
    expect(await seedDatabase(prisma)).toEqual({
      categoriesCreated: Object.keys(SEED_CATALOGUE).length,
      petsCreated: catalogueSize,
    });
    const categories = await prisma.category.findMany({ orderBy: { id: 'asc' } });
    expect(categories.map((category) => category.name)).toEqual(
      expect.arrayContaining([
        'Dogs',
        'Cats',
        'Rabbits',
        'Birds',
        'Guinea pigs',
        'Hamsters',
        'Reptiles',
        'Fish',
      ]),
    );
    expect(catalogueSize).toBeGreaterThanOrEqual(24);
    const byStatus = await prisma.pet.groupBy({ by: ['status'], _count: true });
    expect(Object.fromEntries(byStatus.map((group) => [group.status, group._count]))).toEqual({
      available: expect.any(Number),
      pending: expect.any(Number),
      sold: expect.any(Number),
    });
    const dogs = await prisma.pet.findMany({ where: { category: { name: 'Dogs' } } });
    expect(dogs.map((pet) => pet.name).sort()).toEqual(
      (SEED_CATALOGUE.Dogs ?? []).map((pet) => pet.name).sort(),
    );
  });

  it('adds nothing when run again', async () => {
    const pets = await prisma.pet.count();
    expect(await seedDatabase(prisma)).toEqual({ categoriesCreated: 0, petsCreated: 0 });
    expect(await prisma.pet.count()).toBe(pets);
  });

  it('puts back only what is missing, next to what people added', async () => {
    await prisma.pet.deleteMany({ where: { name: 'Biscuit' } });
    const dogs = await prisma.category.findUniqueOrThrow({ where: { name: 'Dogs' } });
    await prisma.pet.create({ data: { name: 'Walter', categoryId: dogs.id } });
    expect(await seedDatabase(prisma)).toEqual({ categoriesCreated: 0, petsCreated: 1 });
    expect(await prisma.pet.count({ where: { categoryId: dogs.id } })).toBe(
      (SEED_CATALOGUE.Dogs ?? []).length + 1,
    );
  });

  it('seeds once when several processes seed at the same moment', async () => {
    const fresh = await freshPrisma();
    const results = await Promise.all([
      seedDatabase(fresh),
      seedDatabase(fresh),
      seedDatabase(fresh),
    ]);
    expect(results.reduce((sum, result) => sum + result.petsCreated, 0)).toBe(catalogueSize);
    expect(await fresh.pet.count()).toBe(catalogueSize);
  });
});
