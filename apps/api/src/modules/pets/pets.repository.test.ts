import { PET_UNKNOWN_DETAILS, PETS_CURSOR, type TPet } from '@pets/contract';
import {
  countPetsStatement,
  listPetsStatement,
  PetsRepository,
  type TPetFilter,
  UnknownCategoryError,
} from '@pets/store/pets.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedPet } from '../../test/pets';
import { testDatabase } from '../../test/test-database';

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
    [
      'sex, age and size',
      { limit: 20, sex: 'female' as const, age: 'baby' as const, size: 'small' as const },
      ' where "sex" = $1 and "age" = $2 and "size" = $3',
      ['female', 'baby', 'small', 21],
    ],
    [
      'the name search, each word a prefix, on the indexed expression',
      { limit: 20, name: 'Mr Whis' },
      ` where to_tsvector('simple'::regconfig, pets.name) @@ to_tsquery('simple'::regconfig, $1)`,
      ["'Mr':* & 'Whis':*", 21],
    ],
  ])('%s', (_label, filter, where, values) => {
    const limit = `$${values.length}`;
    const { sql, values: sent } = listPetsStatement(filter);
    expect(sql.slice(sql.indexOf(' from "pets"'))).toBe(
      ` from "pets"${where} order by "id" desc limit ${limit}`,
    );
    expect(sent).toEqual(values);
  });

  it('reads every field of a Pet, its arrival date as text and its photos from its row', () => {
    const { sql } = listPetsStatement({ limit: 20 });
    const select = sql.slice(0, sql.indexOf(' from "pets"'));
    expect(select.slice(0, select.indexOf('json_build_object('))).toBe(
      `select "id", "name", "category_id" as "categoryId", "status", "description", "sex", "age", "size", "breed", to_char(pets.arrived_at, 'YYYY-MM-DD') as "arrivedAt", `,
    );
    // The details of issue 28: one JSON value, each key of the contract's in it.
    for (const key of Object.keys(PET_UNKNOWN_DETAILS)) {
      expect(select).toContain(`'${key}', `);
    }
    expect(select.slice(select.indexOf(' as "details", '))).toBe(
      ` as "details", pets.photo_list as "photos", "applications_in_review" as "applicationsInReview", to_char(pets.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt"`,
    );
  });

  it("walks sort=updatedAt by (updated_at, id) ascending, from the cursor's place", () => {
    const first = listPetsStatement({
      limit: 20,
      sort: 'updatedAt',
      updatedSince: '2026-11-27T10:00:00+01:00',
    });
    expect(first.sql.slice(first.sql.indexOf(' from "pets"'))).toBe(
      ' from "pets" where "updated_at" >= $1::timestamptz order by "updated_at" asc, "id" asc limit $2',
    );
    expect(first.values).toEqual(['2026-11-27T09:00:00.000Z', 21]);
    const next = listPetsStatement({
      limit: 20,
      sort: 'updatedAt',
      before: 42n,
      updatedAfter: '2026-11-27T09:30:00.123Z',
    });
    expect(next.sql.slice(next.sql.indexOf(' from "pets"'))).toBe(
      ' from "pets" where (pets.updated_at, pets.id) > ($1::timestamptz, $2::bigint) order by "updated_at" asc, "id" asc limit $3',
    );
    expect(next.values).toEqual(['2026-11-27T09:30:00.123Z', '42', 21]);
  });

  it('filters the details: a yes/no as its text, the fee known, in its currency, at most', () => {
    const { sql, values } = listPetsStatement({
      limit: 20,
      goodWithCats: false,
      specialNeeds: true,
      coatLength: 'long',
      feeMax: 0,
      feeCurrency: 'GBP',
    });
    expect(sql.slice(sql.indexOf(' from "pets"'))).toBe(
      ' from "pets" where "good_with_cats" = $1::boolean and "special_needs" = $2::boolean and "coat_length" = $3 and "adoption_fee_currency" = $4 and "adoption_fee_amount" <= $5::integer order by "id" desc limit $6',
    );
    expect(values).toEqual(['false', 'true', 'long', 'GBP', '0', 21]);
  });

  it.each([
    ['oldest', {}, ' where "id" > $1 order by "id" asc limit $2', ['42', 21]],
    [
      'name',
      { nameAfter: 'Bella' },
      ' where (lower(pets.name), pets.id) > (lower($1), $2::bigint) order by lower(pets.name) asc, "id" asc limit $3',
      ['Bella', '42', 21],
    ],
    [
      'arrived',
      { arrivedAfter: '2026-03-03' },
      " where (coalesce(pets.arrived_at, '-infinity'::date), pets.id) < ($1::date, $2::bigint) order by coalesce(pets.arrived_at, '-infinity'::date) desc, \"id\" desc limit $3",
      ['2026-03-03', '42', 21],
    ],
    [
      'arrived, among the unknown arrivals',
      { arrivedAfter: 'unknown' },
      " where (coalesce(pets.arrived_at, '-infinity'::date), pets.id) < ($1::date, $2::bigint) order by coalesce(pets.arrived_at, '-infinity'::date) desc, \"id\" desc limit $3",
      ['-infinity', '42', 21],
    ],
  ] as const)(
    "walks sort=%s from the cursor's place, on its index's expression",
    (sort, position, where, values) => {
      const next = listPetsStatement({
        limit: 20,
        sort: sort.split(',')[0] as 'oldest' | 'name' | 'arrived',
        before: 42n,
        ...position,
      });
      expect(next.sql.slice(next.sql.indexOf(' from "pets"'))).toBe(` from "pets"${where}`);
      expect(next.values).toEqual(values);
    },
  );

  it('counts with the same filters, without the cursor or the limit', () => {
    expect(countPetsStatement({ status: 'sold', size: 'large' })).toEqual({
      sql: 'select count(*) as "total" from "pets" where "status" = $1 and "size" = $2',
      values: ['sold', 'large'],
    });
  });
});

describe('PetsRepository on a real database', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);
  const pets = new PetsRepository(pool, 'https://media.example.org/files/');
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
    expect(rex).toEqual(expectedPet({ name: 'Rex', categoryId: dogs, status: 'available' }));
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

describe('PetsRepository: the profile and the photos', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);
  const pets = new PetsRepository(pool, 'https://media.example.org/files/');
  let dogs: number;

  beforeAll(async () => {
    const { rows } = await pool.query<{ id: string }>(
      "INSERT INTO categories (name) VALUES ('Dogs') RETURNING id",
    );
    dogs = Number(rows[0]?.id);
  });

  const profile = {
    description: 'A gentle giant.\nLoves the sofa.',
    sex: 'male',
    age: 'senior',
    size: 'xlarge',
    breed: 'Great Dane',
    arrivedAt: '2024-02-29',
  } as const;

  it('stores the profile and gives the date back as the day it was, in any time zone', async () => {
    const pet = await pets.create({
      name: 'Duke',
      categoryId: dogs,
      status: 'available',
      ...profile,
    });
    expect(pet).toEqual(
      expectedPet({ name: 'Duke', categoryId: dogs, status: 'available', ...profile }),
    );
    expect(await pets.get(pet.id)).toEqual(pet);
  });

  it('updates only the fields named, and clears those sent as null', async () => {
    const pet = await pets.create({
      name: 'Lady',
      categoryId: dogs,
      status: 'available',
      ...profile,
    });
    const changed = await pets.update(pet.id, { age: 'adult', breed: null, description: null });
    // Each change moves updatedAt (stamped by the database: pets.updated-at.test.ts).
    const moved = { updatedAt: expect.any(String) };
    expect(changed).toEqual({ ...pet, age: 'adult', breed: null, description: null, ...moved });
    expect(await pets.update(pet.id, { name: 'Lady Grey' })).toEqual({
      ...changed,
      name: 'Lady Grey',
      ...moved,
    });
  });

  it("gives the photos in their order, each file's key as an address under MEDIA_BASE_URL", async () => {
    const pet = await pets.create({ name: 'Pixel', categoryId: dogs, status: 'available' });
    const insert = (position: number, hash: string) =>
      pool.query<{ id: string }>(
        `INSERT INTO pet_photos (pet_id, position, width, height, placeholder, sizes)
         VALUES ($1, $2, 480, 360, 'AAAA', $3) RETURNING id`,
        [
          pet.id,
          position,
          JSON.stringify([
            { width: 480, height: 360, key: `pets/${pet.id}/${hash}-480.webp` },
            { width: 160, height: 120, key: `pets/${pet.id}/${hash}-160.webp` },
          ]),
        ],
      );
    const second = Number((await insert(1, 'bbbb')).rows[0]?.id);
    const first = Number((await insert(0, 'aaaa')).rows[0]?.id);
    const read = await pets.get(pet.id);
    expect(read?.photos).toEqual([
      {
        id: first,
        width: 480,
        height: 360,
        placeholder: 'AAAA',
        sizes: [
          {
            width: 160,
            height: 120,
            url: `https://media.example.org/files/pets/${pet.id}/aaaa-160.webp`,
          },
          {
            width: 480,
            height: 360,
            url: `https://media.example.org/files/pets/${pet.id}/aaaa-480.webp`,
          },
        ],
      },
      expect.objectContaining({ id: second }),
    ]);
    const listed = await pets.list({ limit: 10, id: [pet.id] });
    expect(listed.items).toEqual([read]);
    const updated = await pets.update(pet.id, { status: 'pending' });
    expect(updated?.photos).toEqual(read?.photos);

    // The database keeps every Pet's photos as pet_photos changes: a reorder, a deletion.
    await pool.query('UPDATE pet_photos SET position = 2 - position WHERE pet_id = $1', [pet.id]);
    expect((await pets.get(pet.id))?.photos.map((photo) => photo.id)).toEqual([second, first]);
    await pool.query('DELETE FROM pet_photos WHERE id = $1', [second]);
    expect((await pets.get(pet.id))?.photos.map((photo) => photo.id)).toEqual([first]);
    await pool.query('DELETE FROM pet_photos WHERE id = $1', [first]);
    expect((await pets.get(pet.id))?.photos).toEqual([]);
  });

  it("keeps each animal's photos apart, and moves a photo given to another animal", async () => {
    const [a, b] = [
      await pets.create({ name: 'A', categoryId: dogs, status: 'available' }),
      await pets.create({ name: 'B', categoryId: dogs, status: 'available' }),
    ];
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO pet_photos (pet_id, position, width, height, placeholder, sizes)
       VALUES ($1, 0, 160, 90, 'AAAA', '[{"width":160,"height":90,"key":"a-160.webp"}]'),
              ($2, 0, 160, 90, 'BBBB', '[{"width":160,"height":90,"key":"b-160.webp"}]')
       RETURNING id`,
      [a.id, b.id],
    );
    const [photoA, photoB] = rows.map((row) => Number(row.id));
    expect((await pets.get(a.id))?.photos.map((photo) => photo.id)).toEqual([photoA]);
    expect((await pets.get(b.id))?.photos.map((photo) => photo.id)).toEqual([photoB]);
    await pool.query('UPDATE pet_photos SET pet_id = $1, position = 1 WHERE id = $2', [
      b.id,
      photoA,
    ]);
    expect((await pets.get(a.id))?.photos).toEqual([]);
    expect((await pets.get(b.id))?.photos.map((photo) => photo.id)).toEqual([photoB, photoA]);
  });

  it('filters by sex, age, size and name together, and counts the same animals', async () => {
    const made: TPet[] = [];
    for (const [name, sex, size] of [
      ['Mr. Whiskers', 'male', 'small'],
      ['Whisky', 'female', 'small'],
      ['Old Whiskers', 'male', 'large'],
      ['Jean-Luc', 'male', 'small'],
      ['Émile', 'male', 'small'],
    ] as const) {
      made.push(await pets.create({ name, categoryId: dogs, status: 'available', sex, size }));
    }
    const [mr, whisky, old, jeanLuc, emile] = made as [TPet, TPet, TPet, TPet, TPet];
    const names = async (filter: Omit<TPetFilter, 'limit'>) =>
      (await pets.list({ limit: 20, ...filter })).items.map((pet) => pet.name);
    expect(await names({ name: 'whis' })).toEqual([old.name, whisky.name, mr.name]);
    expect(await names({ name: 'WHISKERS' })).toEqual([old.name, mr.name]);
    expect(await names({ name: 'whis mr' })).toEqual([mr.name]);
    expect(await names({ name: 'hiskers' })).toEqual([]);
    expect(await names({ name: 'luc' })).toEqual([jeanLuc.name]);
    expect(await names({ name: 'émi' })).toEqual([emile.name]);
    expect(await names({ name: 'ÉMILE' })).toEqual([emile.name]);
    expect(await names({ name: 'whis', sex: 'male', size: 'small' })).toEqual([mr.name]);
    expect(await pets.count({ name: 'whis' })).toBe(3);
    expect(await pets.count({ name: 'whis', sex: 'male' })).toBe(2);
    expect(await pets.count({ name: 'zzz' })).toBe(0);
  });
});

describe('the plan of each list with the id filter: one scan of the primary key', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);

  type TPlanNode = {
    'Node Type': string;
    'Index Name'?: string;
    Plans?: TPlanNode[];
  };
  const rootOf = async (filter: TPetFilter): Promise<TPlanNode | undefined> => {
    const { sql, values } = listPetsStatement(filter);
    const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: TPlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      values,
    );
    return rows[0]?.['QUERY PLAN'][0].Plan;
  };
  const nameOf = (node: TPlanNode) =>
    node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'];
  /** Node types and index names of a plan, outermost first: `Limit > Index Scan (pets_pkey)`. */
  const planOf = async (filter: TPetFilter): Promise<string> => {
    const names: string[] = [];
    for (let node = await rootOf(filter); node; node = node.Plans?.[0]) {
      names.push(nameOf(node));
    }
    return names.join(' > ');
  };
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

/**
 * The detail filters and the sorts on a table of 200,000 animals with a store's proportions (the
 * bench's, bench/src/data.ts): every page is a Limit over an index scan (the primary key's walk
 * for the common yes/no answers, an index of its own otherwise), never a read of the whole table
 * into a Sort. The bench shows the same plans at 1,000,000 animals (`planCasesFor`).
 */
describe('the plan of each detail filter and each sort: a Limit over an index', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);

  type TPlanNode = {
    'Node Type': string;
    'Index Name'?: string;
    Plans?: TPlanNode[];
  };
  /** Every node of the plan, outermost first, depth first: `Limit > Index Scan (pets_pkey)`. */
  const planOf = async (filter: TPetFilter): Promise<string> => {
    const { sql, values } = listPetsStatement(filter);
    const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: TPlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      values,
    );
    const names: string[] = [];
    const visit = (node: TPlanNode) => {
      names.push(
        node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'],
      );
      for (const child of node.Plans ?? []) {
        visit(child);
      }
    };
    const root = rows[0]?.['QUERY PLAN'][0].Plan;
    if (root) {
      visit(root);
    }
    return names.join(' > ');
  };
  const percentile = (seed: number) => `(abs(hashint8extended(n::bigint, ${seed})) % 100)`;

  beforeAll(async () => {
    await pool.query("INSERT INTO categories (name) VALUES ('Dogs')");
    await pool.query(
      `INSERT INTO pets (name, category_id, status, arrived_at, good_with_children, good_with_dogs,
                         good_with_cats, house_trained, spayed_neutered, vaccinated, special_needs,
                         energy_level, coat_length, adoption_fee_amount, adoption_fee_currency)
       SELECT (ARRAY['Luna', 'milo', 'Bella', 'oliver', 'Daisy', 'Émile'])[1 + n % 6] || ' ' || n,
              (SELECT min(id) FROM categories),
              (ARRAY['available', 'pending', 'sold'])[1 + n % 3]::pet_status,
              CASE WHEN ${percentile(1)} >= 5 THEN DATE '2021-11-23' + (n % 1826)::int END,
              CASE WHEN ${percentile(4)} < 45 THEN true WHEN ${percentile(4)} < 65 THEN false END,
              CASE WHEN ${percentile(5)} < 40 THEN true WHEN ${percentile(5)} < 60 THEN false END,
              CASE WHEN ${percentile(6)} < 30 THEN true WHEN ${percentile(6)} < 55 THEN false END,
              ${percentile(7)} < 70, ${percentile(8)} < 80, ${percentile(9)} < 85,
              ${percentile(10)} < 8,
              (ARRAY['low', 'medium', 'high'])[1 + ${percentile(11)} % 3]::pet_energy_level,
              (CASE WHEN ${percentile(12)} < 5 THEN 'hairless' WHEN ${percentile(12)} < 55 THEN 'short'
                    WHEN ${percentile(12)} < 85 THEN 'medium' ELSE 'long' END)::pet_coat_length,
              CASE WHEN ${percentile(14)} < 90 THEN 2500 + ${percentile(14)} * 25 END,
              CASE WHEN ${percentile(14)} < 90 THEN 'GBP' END
       FROM generate_series(1, 200000) n`,
    );
    await pool.query('ANALYZE pets');
  }, 120_000);

  /** A walk of the primary key, newest first, skipping the animals that do not match. */
  const PKEY = 'Limit > Index Scan (pets_pkey)';
  /** The index of its own, or the primary key's walk when the value is not rare after all. */
  const ownOrPkey = (index: string) =>
    new RegExp(`^Limit > (Index Scan \\(pets_pkey\\)|Index Scan \\(${index}\\))$`);
  /** The few matches read by the index, then sorted newest first: a bounded sort. */
  const FEW_FEES =
    /^Limit > (Sort > Index Scan \(pets_adoption_fee_idx\)|Sort > Bitmap Heap Scan > Bitmap Index Scan \(pets_adoption_fee_idx\))$/;
  it.each<[string, Omit<TPetFilter, 'limit'>, string | RegExp]>([
    ['goodWithChildren=true', { goodWithChildren: true }, PKEY],
    ['goodWithChildren=false', { goodWithChildren: false }, PKEY],
    ['goodWithDogs=true', { goodWithDogs: true }, PKEY],
    ['goodWithDogs=false', { goodWithDogs: false }, PKEY],
    ['goodWithCats=true', { goodWithCats: true }, PKEY],
    ['goodWithCats=false', { goodWithCats: false }, PKEY],
    ['houseTrained=true', { houseTrained: true }, PKEY],
    ['houseTrained=false', { houseTrained: false }, PKEY],
    ['spayedNeutered=true', { spayedNeutered: true }, PKEY],
    ['spayedNeutered=false', { spayedNeutered: false }, PKEY],
    ['vaccinated=true', { vaccinated: true }, PKEY],
    ['vaccinated=false (15%)', { vaccinated: false }, PKEY],
    ['specialNeeds=true (8%)', { specialNeeds: true }, ownOrPkey('pets_special_needs_id_idx')],
    ['specialNeeds=false', { specialNeeds: false }, PKEY],
    ['energyLevel=low', { energyLevel: 'low' }, PKEY],
    ['energyLevel=high', { energyLevel: 'high' }, PKEY],
    ['coatLength=hairless (5%)', { coatLength: 'hairless' }, ownOrPkey('pets_coat_length_id_idx')],
    ['coatLength=short', { coatLength: 'short' }, PKEY],
    ['feeMax=0 (no free adoption)', { feeMax: 0, feeCurrency: 'GBP' }, FEW_FEES],
    ['feeMax=2600 (5%)', { feeMax: 2600, feeCurrency: 'GBP' }, ownOrPkey('pets_adoption_fee_idx')],
    ['feeMax=4000 (most)', { feeMax: 4000, feeCurrency: 'GBP' }, PKEY],
    ['feeCurrency=EUR (none)', { feeCurrency: 'EUR' }, FEW_FEES],
    ['sort=oldest', { sort: 'oldest' }, PKEY],
    ['sort=oldest, a later page', { sort: 'oldest', before: 150_000n }, PKEY],
    ['sort=name', { sort: 'name' }, 'Limit > Index Scan (pets_name_lower_id_idx)'],
    [
      'sort=name, a later page',
      { sort: 'name', before: 1234n, nameAfter: 'Luna 1234' },
      'Limit > Index Scan (pets_name_lower_id_idx)',
    ],
    ['sort=arrived', { sort: 'arrived' }, 'Limit > Index Scan (pets_arrived_at_id_idx)'],
    [
      'sort=arrived, a later page',
      { sort: 'arrived', before: 1234n, arrivedAfter: '2023-01-01' },
      'Limit > Index Scan (pets_arrived_at_id_idx)',
    ],
    [
      'sort=arrived, among the unknown arrivals',
      { sort: 'arrived', before: 150_000n, arrivedAfter: 'unknown' },
      'Limit > Index Scan (pets_arrived_at_id_idx)',
    ],
    ['sort=updatedAt', { sort: 'updatedAt' }, 'Limit > Index Scan (pets_updated_at_id_idx)'],
  ])('%s', async (_label, filter, expected) => {
    const plan = await planOf({ limit: 20, ...filter });
    if (typeof expected === 'string') {
      expect(plan).toBe(expected);
    } else {
      expect(plan).toMatch(expected);
    }
  });
});
