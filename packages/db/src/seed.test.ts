import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPrismaClient } from './client';
import { SEED_CATALOGUE, SEED_DETAILS, seedDatabase } from './seed';
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
      profilesAdded: 0,
      detailsAdded: 0,
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
    expect(await seedDatabase(prisma)).toEqual({
      categoriesCreated: 0,
      petsCreated: 0,
      profilesAdded: 0,
      detailsAdded: 0,
    });
    expect(await prisma.pet.count()).toBe(pets);
  });

  it('puts back only what is missing, next to what people added', async () => {
    await prisma.pet.deleteMany({ where: { name: 'Biscuit' } });
    const dogs = await prisma.category.findUniqueOrThrow({ where: { name: 'Dogs' } });
    await prisma.pet.create({ data: { name: 'Walter', categoryId: dogs.id } });
    expect(await seedDatabase(prisma)).toEqual({
      categoriesCreated: 0,
      petsCreated: 1,
      profilesAdded: 0,
      detailsAdded: 0,
    });
    expect(await prisma.pet.count({ where: { categoryId: dogs.id } })).toBe(
      (SEED_CATALOGUE.Dogs ?? []).length + 1,
    );
  });

  it('gives every animal a profile: the attributes adopters filter by, a story, a date', async () => {
    const pets = await prisma.pet.findMany({ where: { name: { in: ['Biscuit', 'Sheldon'] } } });
    expect(pets).toHaveLength(2);
    for (const pet of await prisma.pet.findMany({
      where: {
        name: { in: Object.values(SEED_CATALOGUE).flatMap((list) => list.map((one) => one.name)) },
      },
    })) {
      expect(pet.sex && pet.age && pet.size && pet.breed && pet.arrivedAt, pet.name).toBeTruthy();
      expect(pet.description?.length, pet.name).toBeGreaterThan(40);
    }
    const biscuit = pets.find((pet) => pet.name === 'Biscuit');
    expect(biscuit).toMatchObject({
      sex: 'male',
      age: 'young',
      size: 'medium',
      breed: 'Beagle mix',
      arrivedAt: new Date('2026-03-03T00:00:00Z'),
    });
    // Every value of each attribute appears, so each filter of the site finds someone.
    for (const field of ['sex', 'age', 'size'] as const) {
      const groups = await prisma.pet.groupBy({
        by: [field],
        where: { [field]: { not: null } },
        _count: true,
      });
      expect(groups.length, field).toBe(field === 'sex' ? 3 : 4);
    }
  });

  it('gives every animal the details adopters ask about, kindly and plausibly', async () => {
    const names = Object.values(SEED_CATALOGUE).flatMap((list) => list.map((one) => one.name));
    expect(Object.keys(SEED_DETAILS).sort()).toEqual([...names].sort());
    const luna = await prisma.pet.findFirstOrThrow({ where: { name: 'Luna' } });
    expect(luna).toMatchObject({
      goodWithChildren: true,
      energyLevel: 'medium',
      colors: ['golden'],
      adoptionFeeAmount: 22500,
      adoptionFeeCurrency: 'GBP',
    });
    const noted = await prisma.pet.findMany({ where: { specialNeeds: true } });
    expect(noted.length).toBeGreaterThan(0);
    for (const pet of noted) {
      expect(pet.specialNeedsNote, pet.name).toEqual(expect.any(String));
    }
    // Some unknowns, as a real store has: the fish's manners with cats, a fee to ask about.
    expect(await prisma.pet.count({ where: { goodWithCats: null } })).toBeGreaterThan(0);
    expect(await prisma.pet.count({ where: { adoptionFeeAmount: null } })).toBeGreaterThan(0);
  });

  it('gives an animal of an older seed its details, once', async () => {
    const fresh = await freshPrisma();
    await seedDatabase(fresh);
    await fresh.pet.updateMany({
      where: { name: 'Biscuit' },
      data: {
        goodWithChildren: null,
        goodWithDogs: null,
        goodWithCats: null,
        houseTrained: null,
        spayedNeutered: null,
        vaccinated: null,
        specialNeeds: null,
        specialNeedsNote: null,
        energyLevel: null,
        coatLength: null,
        colors: [],
        adoptionFeeAmount: null,
        adoptionFeeCurrency: null,
      },
    });
    expect(await seedDatabase(fresh)).toMatchObject({ petsCreated: 0, detailsAdded: 1 });
    expect(await fresh.pet.findFirst({ where: { name: 'Biscuit' } })).toMatchObject({
      colors: ['tan', 'white'],
      adoptionFeeAmount: 19500,
    });
    expect(await seedDatabase(fresh)).toMatchObject({ detailsAdded: 0 });
  });

  it('describes the animals of an older seed, never one someone described', async () => {
    const fresh = await freshPrisma();
    await seedDatabase(fresh);
    const plain = {
      description: null,
      sex: null,
      age: null,
      size: null,
      breed: null,
      arrivedAt: null,
    };
    await fresh.pet.updateMany({ where: { name: { in: ['Luna', 'Mochi'] } }, data: plain });
    await fresh.pet.updateMany({
      where: { name: 'Mochi' },
      data: { breed: 'Tabby, says her vet' },
    });
    expect(await seedDatabase(fresh)).toEqual({
      categoriesCreated: 0,
      petsCreated: 0,
      profilesAdded: 1,
      detailsAdded: 0,
    });
    expect(await fresh.pet.findFirst({ where: { name: 'Luna' } })).toMatchObject({
      sex: 'female',
      breed: 'Labrador Retriever',
    });
    expect(await fresh.pet.findFirst({ where: { name: 'Mochi' } })).toMatchObject({
      sex: null,
      breed: 'Tabby, says her vet',
    });
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

  it('waits longer than five seconds for another seed, as on a busy machine, and still seeds', async () => {
    const fresh = await freshPrisma();
    let released = 0;
    let locked: () => void = () => undefined;
    const hasLock = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another seed holds the seed's lock for six seconds (the key is seed.ts's SEED_LOCK_KEY).
    const holder = fresh.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${72_707_370}::bigint)`;
        locked();
        await new Promise((resolve) => setTimeout(resolve, 6_000));
        released = Date.now();
      },
      { timeout: 20_000 },
    );
    await hasLock;
    const seeded = await seedDatabase(fresh);
    // The seed waited for the other to finish, then did the work itself.
    expect(released).toBeGreaterThan(0);
    await holder;
    expect(seeded.petsCreated).toBe(catalogueSize);
    expect(await fresh.pet.count()).toBe(catalogueSize);
  }, 30_000);
});
