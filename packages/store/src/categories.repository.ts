import { MAX_CATEGORIES, type TCategory } from '@pets/contract';
import { prepare, type TQueryable } from '@pets/db';

/** The categories table and its one row -> `TCategory` mapping. */

const LIST_STATEMENT = prepare((db) =>
  // The document promises at most MAX_CATEGORIES items (maxItems); a store has a handful.
  db.selectFrom('categories').select(['id', 'name']).orderBy('name', 'asc').limit(MAX_CATEGORIES),
);

const toCategory = (row: { id: string; name: string }): TCategory => ({
  id: Number(row.id),
  name: row.name,
});

export class CategoriesRepository {
  constructor(private readonly db: TQueryable) {}

  /** Every category, by name. */
  async list(): Promise<TCategory[]> {
    const { rows } = await LIST_STATEMENT.execute(this.db, {});
    return rows.map(toCategory);
  }
}
