import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createKysely, prepare, prepareShapes } from './kysely';
import { testDatabase } from './testing';

describe('prepare', () => {
  const listNewest = prepare((db, p: { limit: number; before: string; status: 'available' }) =>
    db
      .selectFrom('pets')
      .select(['id', 'name', 'category_id as categoryId', 'status'])
      .where('status', '=', p.status)
      .where('id', '<', p.before)
      .where('name', '<>', 'fixed')
      .orderBy('id', 'desc')
      .limit(p.limit),
  );

  it('compiles the query once, with a $n for each request-time value', () => {
    expect(listNewest.sql).toBe(
      'select "id", "name", "category_id" as "categoryId", "status" from "pets" where "status" = $1 and "id" < $2 and "name" <> $3 order by "id" desc limit $4',
    );
    expect(listNewest.parameterNames).toEqual(['status', 'before', null, 'limit']);
  });

  it('sends the values in $n order, fixed ones as compiled, in one pool.query', async () => {
    const calls: [string, unknown[]][] = [];
    const fakePool = {
      query: async (sql: string, values: unknown[]) => {
        calls.push([sql, values]);
        return { rows: [{ id: '7', name: 'Rex', categoryId: '1', status: 'available' }] };
      },
    };
    const { rows } = await listNewest.execute(fakePool as never, {
      limit: 21,
      before: '42',
      status: 'available',
    });
    expect(calls).toEqual([[listNewest.sql, ['available', '42', 'fixed', 21]]]);
    expect(rows).toEqual([{ id: '7', name: 'Rex', categoryId: '1', status: 'available' }]);
    expectTypeOf(rows[0]).toEqualTypeOf<
      | { id: string; name: string; categoryId: string; status: 'available' | 'pending' | 'sold' }
      | undefined
    >();
  });
});

describe('prepareShapes', () => {
  const list = prepareShapes(
    ['status', 'before'],
    (db, p: { limit: number; status: string; before: string }, has) => {
      let query = db.selectFrom('pets').select(['id']);
      if (has('status')) {
        query = query.where('status', '=', p.status as 'sold');
      }
      if (has('before')) {
        query = query.where('id', '<', p.before);
      }
      return query.orderBy('id', 'desc').limit(p.limit);
    },
  );

  it('prepares one statement per combination and picks it by the values given', () => {
    const sqlOf = (status: string, before: string) =>
      list.statementFor({ limit: 1, status, before }).sql;
    const select = 'select "id" from "pets"';
    const tail = 'order by "id" desc limit';
    expect(sqlOf('', '')).toBe(`${select} ${tail} $1`);
    expect(sqlOf('sold', '')).toBe(`${select} where "status" = $1 ${tail} $2`);
    expect(sqlOf('', '42')).toBe(`${select} where "id" < $1 ${tail} $2`);
    expect(sqlOf('sold', '42')).toBe(`${select} where "status" = $1 and "id" < $2 ${tail} $3`);
    expect(list.statementFor({ limit: 1, status: 'sold', before: '' })).toBe(
      list.statementFor({ limit: 9, status: 'pending', before: '' }),
    );
  });

  it('keeps a bounded number of shapes: a client walking every combination costs compiles, not memory', () => {
    const names = Array.from({ length: 12 }, (_, index) => `f${index}`);
    let builds = 0;
    const wide = prepareShapes(names, (db, p: Record<string, string>, has) => {
      builds += 1;
      let query = db.selectFrom('pets').select(['id']);
      for (const name of names) {
        if (has(name)) {
          query = query.where('name', '=', p[name] as string);
        }
      }
      return query;
    });
    const paramsOf = (shape: number) =>
      Object.fromEntries(names.map((name, bit) => [name, shape & (1 << bit) ? 'x' : '']));
    for (let shape = 1; shape < 1 << names.length; shape += 1) {
      wide.statementFor(paramsOf(shape));
    }
    // Every one of the 4,095 shapes was compiled once; the most recent ones are still kept.
    expect(builds).toBe(1 << names.length);
    const before = builds;
    wide.statementFor(paramsOf((1 << names.length) - 1));
    expect(builds).toBe(before);
    // An early one was dropped to make room, and is compiled again when asked for.
    wide.statementFor(paramsOf(1));
    expect(builds).toBe(before + 1);
  });

  it('refuses a filter it was not told is optional', () => {
    expect(() =>
      prepareShapes(['status'], (db, p: { status: string; name: string }, has) =>
        db
          .selectFrom('pets')
          .select(['id'])
          .where('name', '=', has('name') ? p.name : 'x'),
      ),
    ).toThrow('name is not one of the optional parameters');
  });
});

describe('on PostgreSQL, on the pool Prisma uses', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);

  const insertPet = prepare((db, p: { name: string; categoryId: string }) =>
    db
      .insertInto('pets')
      .values({ name: p.name, category_id: p.categoryId })
      .returning(['id', 'name', 'category_id as categoryId', 'status']),
  );
  const newestInCategory = prepare((db, p: { categoryId: string; limit: number }) =>
    db
      .selectFrom('pets')
      .select(['id', 'name'])
      .where('category_id', '=', p.categoryId)
      .orderBy('id', 'desc')
      .limit(p.limit),
  );

  it('runs prepared statements and createKysely queries alike', async () => {
    const kysely = createKysely(pool);
    const category = await kysely
      .insertInto('categories')
      .values({ name: 'Dogs' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { rows: inserted } = await insertPet.execute(pool, {
      name: 'Rex',
      categoryId: category.id,
    });
    expect(inserted).toEqual([
      { id: expect.any(String), name: 'Rex', categoryId: category.id, status: 'available' },
    ]);
    await insertPet.execute(pool, { name: 'Fido', categoryId: category.id });
    const { rows } = await newestInCategory.execute(pool, { categoryId: category.id, limit: 5 });
    expect(rows.map((row) => row.name)).toEqual(['Fido', 'Rex']);
  });
});
