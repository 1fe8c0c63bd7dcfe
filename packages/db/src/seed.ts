import type { PrismaClient } from './generated/prisma/client.js';
import type { PetStatus } from './generated/prisma/enums.js';

/**
 * Demo content of an adoption store: its categories and a few dozen animals. Idempotent: a
 * category is added when no category has its name, an animal when its category has no animal of
 * that name, so running it again adds nothing.
 */

type TSeedPet = { name: string; status: PetStatus };

export const SEED_CATALOGUE: Record<string, TSeedPet[]> = {
  Dogs: [
    { name: 'Biscuit', status: 'available' },
    { name: 'Luna', status: 'available' },
    { name: 'Max', status: 'pending' },
    { name: 'Bella', status: 'sold' },
    { name: 'Rocky', status: 'available' },
    { name: 'Daisy', status: 'available' },
    { name: 'Otis', status: 'sold' },
  ],
  Cats: [
    { name: 'Mochi', status: 'available' },
    { name: 'Oliver', status: 'available' },
    { name: 'Cleo', status: 'pending' },
    { name: 'Simba', status: 'sold' },
    { name: 'Pepper', status: 'available' },
    { name: 'Nala', status: 'available' },
  ],
  Rabbits: [
    { name: 'Thumper', status: 'available' },
    { name: 'Clover', status: 'pending' },
    { name: 'Hazel', status: 'available' },
    { name: 'Bun Bun', status: 'sold' },
  ],
  Birds: [
    { name: 'Kiwi', status: 'available' },
    { name: 'Sunny', status: 'available' },
    { name: 'Rio', status: 'sold' },
    { name: 'Peaches', status: 'pending' },
  ],
  'Guinea pigs': [
    { name: 'Pumpkin', status: 'available' },
    { name: 'Nugget', status: 'available' },
    { name: 'Cinnamon', status: 'sold' },
  ],
  Hamsters: [
    { name: 'Peanut', status: 'available' },
    { name: 'Gizmo', status: 'pending' },
    { name: 'Teddy', status: 'available' },
  ],
  Reptiles: [
    { name: 'Spike', status: 'available' },
    { name: 'Mango', status: 'sold' },
    { name: 'Sheldon', status: 'available' },
  ],
  Fish: [
    { name: 'Bubbles', status: 'available' },
    { name: 'Finn', status: 'available' },
    { name: 'Goldie', status: 'sold' },
  ],
  Ferrets: [
    { name: 'Bandit', status: 'available' },
    { name: 'Ziggy', status: 'pending' },
  ],
};

/**
 * Transaction-scoped advisory lock key of the seed (arbitrary, distinct from Prisma's 72707369 and
 * from the API's demo key, 72707371).
 */
const SEED_LOCK_KEY = 72_707_370;

export type TSeedResult = { categoriesCreated: number; petsCreated: number };

export const seedDatabase = (prisma: PrismaClient): Promise<TSeedResult> =>
  prisma.$transaction(async (tx) => {
    // Two seeds at once (two replicas starting) would otherwise both see an animal missing.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY}::bigint)`;
    const names = Object.keys(SEED_CATALOGUE);
    const { count: categoriesCreated } = await tx.category.createMany({
      data: names.map((name) => ({ name })),
      skipDuplicates: true,
    });
    const categories = await tx.category.findMany({
      where: { name: { in: names } },
      select: { id: true, name: true },
    });
    const existing = await tx.pet.findMany({
      where: { categoryId: { in: categories.map((category) => category.id) } },
      select: { categoryId: true, name: true },
    });
    const has = new Set(existing.map((pet) => `${pet.categoryId}/${pet.name}`));
    const missing = categories.flatMap((category) =>
      (SEED_CATALOGUE[category.name] ?? [])
        .filter((pet) => !has.has(`${category.id}/${pet.name}`))
        .map((pet) => ({ ...pet, categoryId: category.id })),
    );
    const { count: petsCreated } = await tx.pet.createMany({ data: missing });
    return { categoriesCreated, petsCreated };
  });
