import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../api-keys/api-key-format';
import { createTestDatabase, type TTestDatabase } from '../test/test-database';
import { createPrismaClient, type TPrismaClient } from './prisma';
import { ensureDemoKey, SEED_CATALOGUE, seedDatabase } from './seed';

const databases: TTestDatabase[] = [];
const clients: TPrismaClient[] = [];

const freshPrisma = async () => {
  const database = await createTestDatabase();
  databases.push(database);
  const prisma = createPrismaClient(database.url, 4);
  clients.push(prisma);
  return prisma;
};

afterAll(async () => {
  await Promise.all(clients.map((client) => client.$disconnect()));
  await Promise.all(databases.map((database) => database.drop()));
});

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

describe('ensureDemoKey', () => {
  it('creates a free "demo" key on a fresh database, once', async () => {
    const prisma = await freshPrisma();
    const key = await ensureDemoKey(prisma, 'production');
    expect(key).toMatch(/^pets_live_[0-9A-Za-z]{32}$/);
    const stored = await prisma.apiKey.findMany();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: 'demo',
      plan: 'free',
      environment: 'production',
      hash: hashApiKey(key ?? ''),
      revokedAt: null,
    });
    expect(await ensureDemoKey(prisma, 'production')).toBeNull();
    expect(await prisma.apiKey.count()).toBe(1);
  });

  it('creates nothing once any key exists, even a revoked one', async () => {
    const prisma = await freshPrisma();
    await prisma.apiKey.create({
      data: {
        name: 'old',
        plan: 'pro',
        environment: 'staging',
        hash: 'f'.repeat(64),
        start: 'pets_test_0000',
        revokedAt: new Date(),
      },
    });
    expect(await ensureDemoKey(prisma, 'staging')).toBeNull();
  });

  it('creates exactly one key when several API instances start together', async () => {
    const prisma = await freshPrisma();
    const keys = await Promise.all([1, 2, 3, 4].map(() => ensureDemoKey(prisma, 'staging')));
    expect(keys.filter((key) => key !== null)).toHaveLength(1);
    expect(keys.find((key) => key !== null)).toMatch(/^pets_test_/);
    expect(await prisma.apiKey.count()).toBe(1);
  });
});
