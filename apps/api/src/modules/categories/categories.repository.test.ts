import { CategoriesRepository } from '@pets/store/categories.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database';

describe('CategoriesRepository on a real database', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);

  it('lists every category by name, ids as numbers', async () => {
    const { rows } = await pool.query<{ id: string }>(
      "INSERT INTO categories (name) VALUES ('Fish'), ('Birds') RETURNING id",
    );
    const [fish, birds] = rows.map((row) => Number(row.id));
    expect(await new CategoriesRepository(pool).list()).toEqual([
      { id: birds, name: 'Birds' },
      { id: fish, name: 'Fish' },
    ]);
  });
});
