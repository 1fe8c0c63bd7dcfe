import { PETS_CURSOR, type TPet } from '@pets/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database';
import {
  listPetsStatement,
  PetsRepository,
  type TPetFilter,
  UnknownCategoryError,
} from './pets.repository';

describe('the SQL of the pets list (one compiled statement per filter shape)', () => {
  it.each([
    ['no filter', { limit: 20 }, '', [21]],
    ['status', { limit: 20, status: 'sold' as const }, ' where "status" = $1', ['sold', 21]],
    ['category', { limit: 5, categoryId: 3 }, ' where "category_id" = $1', ['3', 6]],
    ['cursor', { limit: 20, before: 42n }, ' where "id" < $1', ['42', 21]],
    [
      'ids, as one array parameter',
      { limit: 20, id: [9, 3] },
      ' where "id" = any($1)',
      [[9, 3], 21],
    ],
    [
      'all filters',
      { limit: 20, categoryId: 3, status: 'available' as const, id: [7], before: 42n },
      ' where "category_id" = $1 and "status" = $2 and "id" = any($3) and "id" < $4',
      ['3', 'available', [7], '42', 21],
    ],
  ])('%s', (_label, filter, where, values) => {
    const limit = `$${values.length}`;
    expect(listPetsStatement(filter)).toEqual({
      sql: `select "id", "name", "category_id" as "categoryId", "status" from "pets"${where} order by "id" desc limit ${limit}`,
      values,
    });
  });
});

describe('PetsRepository on a real database', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);
  const pets = new PetsRepository(pool);
  let dogs: number;
  let cats: number;

  beforeAll(async () => {
    const { rows } = await pool.query<{ id: string }>(
      "INSERT INTO categories (name) VALUES ('Dogs'), ('Cats') RETURNING id",
    );
    [dogs, cats] = rows.map((row) => Number(row.id)) as [number, number];
  });

  it('creates pets and reads them back as the contract shapes them', async () => {
    const rex = await pets.create({ name: 'Rex', categoryId: dogs, status: 'available' });
    expect(rex).toEqual({
      id: expect.any(Number),
      name: 'Rex',
      categoryId: dogs,
      status: 'available',
    });
    expect(await pets.get(rex.id)).toEqual(rex);
    expect(await pets.get(rex.id + 1000)).toBeNull();
  });

  it('lists newest first, filtered, in keyset pages', async () => {
    const tom = await pets.create({ name: 'Tom', categoryId: cats, status: 'sold' });
    const felix = await pets.create({ name: 'Felix', categoryId: cats, status: 'available' });
    const first = await pets.list({ limit: 1, categoryId: cats });
    expect(first.items).toEqual([felix]);
    expect(first.nextCursor).not.toBeNull();
    const second = await pets.list({ limit: 1, categoryId: cats, before: BigInt(felix.id) });
    expect(second).toEqual({ items: [tom], nextCursor: null });
    expect((await pets.list({ limit: 10, status: 'sold' })).items).toEqual([tom]);
  });

  it('lists by ids, with the other filters, in pages whose cursor keeps the ids', async () => {
    const made = [];
    for (const status of ['available', 'sold', 'available', 'available'] as const) {
      made.push(await pets.create({ name: `Id ${made.length}`, categoryId: dogs, status }));
    }
    const [a, b, c, d] = made as [TPet, TPet, TPet, TPet];
    const id = [d.id, c.id, b.id, a.id];
    expect((await pets.list({ limit: 10, id: [b.id, 999_999] })).items).toEqual([b]);
    expect((await pets.list({ limit: 10, id, status: 'available' })).items).toEqual([d, c, a]);
    const first = await pets.list({ limit: 2, id, status: 'available' });
    expect(first.items).toEqual([d, c]);
    const reading = PETS_CURSOR.read(first.nextCursor ?? '', {});
    expect(reading).toEqual({ before: BigInt(c.id), filters: { status: 'available', id } });
  });

  it('refuses a category that does not exist', async () => {
    await expect(
      pets.create({ name: 'Nemo', categoryId: 999_999, status: 'available' }),
    ).rejects.toBeInstanceOf(UnknownCategoryError);
  });
});

describe('the plan of each list with the id filter: one scan of the primary key', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);

  /** Node types and index names of a plan, outermost first: `Limit > Index Scan (pets_pkey)`. */
  const planOf = async (filter: TPetFilter): Promise<string> => {
    const { sql, values } = listPetsStatement(filter);
    const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: TPlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      values,
    );
    const names: string[] = [];
    for (let node: TPlanNode | undefined = rows[0]?.['QUERY PLAN'][0].Plan; node; ) {
      names.push(
        node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'],
      );
      node = node.Plans?.[0];
    }
    return names.join(' > ');
  };
  type TPlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: TPlanNode[] };

  beforeAll(async () => {
    await pool.query(
      "INSERT INTO categories (name) SELECT 'Kind ' || n FROM generate_series(1, 10) n",
    );
    await pool.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT 'Pet ' || n, (SELECT min(id) FROM categories) + n % 10,
              (ARRAY['available', 'pending', 'sold'])[1 + n % 3]::pet_status
       FROM generate_series(1, 50000) n`,
    );
    await pool.query('ANALYZE pets');
  });

  const ids = Array.from({ length: 100 }, (_, index) => 40_000 - index * 397);
  it.each<[string, TPetFilter]>([
    ['one id', { limit: 20, id: [12_345] }],
    ['100 ids', { limit: 20, id: ids }],
    ['ids and status', { limit: 20, id: ids, status: 'sold' }],
    ['ids and category', { limit: 20, id: ids, categoryId: 3 }],
    ['ids, category and status', { limit: 20, id: ids, categoryId: 3, status: 'pending' }],
    ['ids below a cursor', { limit: 20, id: ids, before: 30_000n }],
  ])('%s', async (_label, filter) => {
    expect(await planOf(filter)).toBe('Limit > Index Scan (pets_pkey)');
  });
});
