import { afterAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../migrate';
import { queryOnce, testDatabases } from './index';

const databases = testDatabases();

afterAll(() => databases.dropAll());

describe('migrated test databases (copies of the template)', () => {
  it('hold every migration, booked as migrate() books it, and need nothing more', async () => {
    const { url } = await databases.open();
    const rows = await queryOnce<{ migration_name: string; checksum: string }>(
      url,
      `SELECT migration_name, checksum FROM _prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    const files = await readMigrations();
    expect(rows).toEqual(
      files.map((file) => ({ migration_name: file.name, checksum: file.checksum })),
    );
    expect(await migrate(url)).toEqual({ applied: [] });
  });

  it('are made side by side, each a database of its own', async () => {
    const opened = await Promise.all([1, 2, 3, 4].map(() => databases.open()));
    expect(new Set(opened.map((database) => database.name)).size).toBe(4);
    const [first, second] = opened;
    await first?.pool.query(`INSERT INTO categories (name) VALUES ('Only in the first')`);
    const seen = await second?.pool.query(`SELECT count(*)::int AS n FROM categories`);
    expect(seen?.rows[0]?.n).toBe(0);
  });
});
