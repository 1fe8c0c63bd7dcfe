import { testDatabases } from '@pets/db/testing';
import { hashApiKey } from '@pets/store/api-key-format';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDemoKey } from './demo-key';

const databases = testDatabases();
const fresh = () => databases.open();

/** ensureDemoKey (the API's first start) on fresh databases of their own. */
afterAll(() => databases.dropAll());

describe('ensureDemoKey', () => {
  it('creates a free "demo" key on a fresh database, once', async () => {
    const { prisma, pool } = await fresh();
    const key = await ensureDemoKey(pool, 'production');
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
    expect(await ensureDemoKey(pool, 'production')).toBeNull();
    expect(await prisma.apiKey.count()).toBe(1);
  });

  it('creates nothing once any key exists, even a revoked one', async () => {
    const { prisma, pool } = await fresh();
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
    expect(await ensureDemoKey(pool, 'staging')).toBeNull();
  });

  it('creates exactly one key when several API instances start together', async () => {
    const { prisma, pool } = await fresh();
    const keys = await Promise.all([1, 2, 3, 4].map(() => ensureDemoKey(pool, 'staging')));
    expect(keys.filter((key) => key !== null)).toHaveLength(1);
    expect(keys.find((key) => key !== null)).toMatch(/^pets_test_/);
    expect(await prisma.apiKey.count()).toBe(1);
  });
});
