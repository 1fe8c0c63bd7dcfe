import { nextLinkTarget, PET_DETAIL_FACTS, type TPet } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../../test/api-harness';

/**
 * listPets' detail filters and sorts over real HTTP against PostgreSQL: each yes/no filter
 * returns exactly the animals known to be so (never the unknown), the fee filter's bounds and
 * currency, every sort's order walked page by page with the cursor of its `Link` header, and
 * the cursor and the bad values refused with a 400 naming the parameter.
 */

const api = useTestApi({ defaultKey: { role: 'staff' } });
/** Every animal of this file's database, in the order they were created (oldest first). */
let herd: TPet[];

const ANSWERS = [true, false, null] as const;
const ENERGY = ['low', 'medium', 'high', null] as const;
const COATS = ['hairless', 'short', 'medium', 'long', null] as const;
const FEES = [
  null,
  { amount: 0, currency: 'GBP' },
  { amount: 2500, currency: 'GBP' },
  { amount: 2501, currency: 'GBP' },
  { amount: 2499, currency: 'GBP' },
  { amount: 2500, currency: 'EUR' },
  { amount: 0, currency: 'EUR' },
] as const;
const ARRIVALS = ['2026-03-03', null, '2025-12-01', '2026-03-03', '2024-01-15', null] as const;
// Upper and lower case of the same names, for the name order's ties (ASCII: the same order in
// every collation).
const NAMES = [
  'bella',
  'Bella',
  'Alfie',
  'charlie',
  'alfie',
  'Daisy',
  'BELLA',
  'zed',
  'Ziggy',
  'daisy',
  'Oscar',
  'oscar',
  'Milo',
  'milo',
  'Alfie',
];

beforeAll(async () => {
  const dogs = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  herd = [];
  for (const [index, name] of NAMES.entries()) {
    const facts = Object.fromEntries(
      PET_DETAIL_FACTS.map((fact, k) => [fact, ANSWERS[(index + k) % ANSWERS.length]]),
    );
    const response = await api.fetch(
      '/v1/pets',
      json({
        name,
        categoryId: dogs,
        ...facts,
        energyLevel: ENERGY[index % ENERGY.length],
        coatLength: COATS[index % COATS.length],
        adoptionFee: FEES[index % FEES.length],
        arrivedAt: ARRIVALS[index % ARRIVALS.length],
      }),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    herd.push((await response.json()) as TPet);
  }
});

const list = async (query: string): Promise<TPet[]> => {
  const response = await api.fetch(`/v1/pets?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as TPet[];
};

/** Every page of a list, following `Link: rel="next"` as a client does. */
const walk = async (query: string): Promise<{ pets: TPet[]; pages: number }> => {
  const pets: TPet[] = [];
  let pages = 0;
  let next: string | undefined = `/v1/pets?${query}`;
  while (next) {
    const response = await api.fetch(next);
    expect(response.status, await response.clone().text()).toBe(200);
    pets.push(...((await response.json()) as TPet[]));
    pages += 1;
    next = nextLinkTarget(response.headers.get('link'));
  }
  return { pets, pages };
};

const ids = (pets: TPet[]) => pets.map((pet) => pet.id);
/** The animals that pass `keep`, newest first: the default order. */
const newestWhere = (keep: (pet: TPet) => boolean) => ids([...herd].reverse().filter(keep));

const cursorOf = (response: Response): string =>
  new URL(nextLinkTarget(response.headers.get('link')) ?? '', api.baseUrl).searchParams.get(
    'cursor',
  ) ?? '';

describe('listPets: the yes/no filters match only what the store knows', () => {
  const cases = PET_DETAIL_FACTS.flatMap((fact) => [
    [fact, true],
    [fact, false],
  ]) as [(typeof PET_DETAIL_FACTS)[number], boolean][];

  it.each(cases)('%s=%s: exactly the animals known to be so, newest first', async (fact, value) => {
    const expected = newestWhere((pet) => pet[fact] === value);
    expect(expected.length).toBeGreaterThan(0);
    // The unknown (null) are in neither list.
    expect(herd.some((pet) => pet[fact] === null)).toBe(true);
    expect(ids(await list(`${fact}=${value}&limit=100`))).toEqual(expected);
  });

  it('combines them with each other and with the other filters', async () => {
    expect(ids(await list('goodWithCats=true&goodWithDogs=false&limit=100'))).toEqual(
      newestWhere((pet) => pet.goodWithCats === true && pet.goodWithDogs === false),
    );
    expect(ids(await list('vaccinated=true&energyLevel=low&coatLength=short&limit=100'))).toEqual(
      newestWhere(
        (pet) => pet.vaccinated === true && pet.energyLevel === 'low' && pet.coatLength === 'short',
      ),
    );
  });

  it('counts the same animals with include=total_count', async () => {
    const response = await api.fetch('/v1/pets?goodWithChildren=true&limit=1&include=total_count');
    expect(response.headers.get('x-total-count')).toBe(
      String(newestWhere((pet) => pet.goodWithChildren === true).length),
    );
  });
});

describe('listPets: energyLevel and coatLength', () => {
  it.each([
    ['energyLevel', 'low'],
    ['energyLevel', 'medium'],
    ['energyLevel', 'high'],
    ['coatLength', 'hairless'],
    ['coatLength', 'short'],
    ['coatLength', 'medium'],
    ['coatLength', 'long'],
  ] as const)('%s=%s: only those animals, the unknown left out', async (field, value) => {
    const expected = newestWhere((pet) => pet[field] === value);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await list(`${field}=${value}&limit=100`))).toEqual(expected);
  });
});

describe('listPets: feeMax and feeCurrency', () => {
  const feeWithin = (max: number | undefined, currency: string) => (pet: TPet) =>
    pet.adoptionFee !== null &&
    pet.adoptionFee.currency === currency &&
    (max === undefined || pet.adoptionFee.amount <= max);

  it.each([
    [0, 'GBP', 'the free adoptions only'],
    [2499, 'GBP', 'below the 25.00 fees'],
    [2500, 'GBP', 'the 25.00 fee included'],
    [2501, 'GBP', 'up to 25.01'],
    [10_000_000, 'GBP', 'every known fee in pounds'],
    [2500, 'EUR', 'another currency'],
  ])('feeMax=%i&feeCurrency=%s: %s, never an unknown fee', async (max, currency) => {
    const expected = newestWhere(feeWithin(max, currency));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await list(`feeMax=${max}&feeCurrency=${currency}&limit=100`))).toEqual(expected);
  });

  it('checks the bounds exactly: 2499 leaves out 2500, 2500 takes it', async () => {
    const at = herd.find(
      (pet) => pet.adoptionFee?.amount === 2500 && pet.adoptionFee.currency === 'GBP',
    );
    expect(ids(await list('feeMax=2499&feeCurrency=GBP&limit=100'))).not.toContain(at?.id);
    expect(ids(await list('feeMax=2500&feeCurrency=GBP&limit=100'))).toContain(at?.id);
    const unknown = herd.filter((pet) => pet.adoptionFee === null).map((pet) => pet.id);
    expect(unknown.length).toBeGreaterThan(0);
    const any = ids(await list('feeMax=10000000&feeCurrency=GBP&limit=100'));
    expect(any.filter((id) => unknown.includes(id))).toEqual([]);
  });

  it('feeCurrency alone: the animals whose fee is known and in that currency', async () => {
    expect(ids(await list('feeCurrency=EUR&limit=100'))).toEqual(
      newestWhere(feeWithin(undefined, 'EUR')),
    );
  });

  it('refuses feeMax without feeCurrency: 400 naming feeCurrency', async () => {
    const response = await api.fetch('/v1/pets?feeMax=5000');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).details).toEqual([
      {
        field: 'query.feeCurrency',
        message:
          'feeCurrency is required with feeMax: fees in different currencies cannot be compared',
      },
    ]);
  });

  it('continues a feeMax list from its cursor alone (the cursor carries the currency)', async () => {
    const first = await api.fetch('/v1/pets?feeMax=2500&feeCurrency=GBP&limit=1');
    const rest = await list(`cursor=${cursorOf(first)}&limit=100`);
    expect(ids([...((await first.json()) as TPet[]), ...rest])).toEqual(
      newestWhere(feeWithin(2500, 'GBP')),
    );
  });
});

describe('listPets: bad values of the new parameters', () => {
  it.each([
    ['goodWithCats=yes', 'query.goodWithCats'],
    ['goodWithChildren=TRUE', 'query.goodWithChildren'],
    ['specialNeeds=1', 'query.specialNeeds'],
    ['vaccinated=', 'query.vaccinated'],
    ['houseTrained=true&houseTrained=false', 'query.houseTrained'],
    ['energyLevel=sleepy', 'query.energyLevel'],
    ['coatLength=curly', 'query.coatLength'],
    ['feeMax=-1&feeCurrency=GBP', 'query.feeMax'],
    ['feeMax=12.5&feeCurrency=GBP', 'query.feeMax'],
    ['feeMax=10000001&feeCurrency=GBP', 'query.feeMax'],
    ['feeMax=100&feeCurrency=gbp', 'query.feeCurrency'],
    ['feeCurrency=XYZ', 'query.feeCurrency'],
    ['sort=price', 'query.sort'],
    ['sort=Name', 'query.sort'],
  ])('%s: 400 naming %s', async (query, field) => {
    const response = await api.fetch(`/v1/pets?${query}`);
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.code).toBe('invalid_request');
    expect(body.details?.[0]?.field).toBe(field);
  });
});

describe('listPets: the sorts, walked page by page', () => {
  const byId = (a: TPet, b: TPet) => a.id - b.id;
  /** Name A to Z, upper and lower case alike, ties oldest first. */
  const byName = (a: TPet, b: TPet) => {
    const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : byId(a, b);
  };
  /** Latest arrival first, the unknown last, ties newest first. */
  const byArrival = (a: TPet, b: TPet) => {
    const [x, y] = [a.arrivedAt ?? '', b.arrivedAt ?? ''];
    return x > y ? -1 : x < y ? 1 : byId(b, a);
  };
  const ORDERS: [string, (a: TPet, b: TPet) => number][] = [
    ['newest', (a, b) => byId(b, a)],
    ['oldest', byId],
    ['name', byName],
    ['arrived', byArrival],
  ];

  it.each(ORDERS)('sort=%s: every animal once, in its order, two a page', async (sort, order) => {
    const { pets, pages } = await walk(`sort=${sort}&limit=2`);
    expect(ids(pets)).toEqual(ids([...herd].sort(order)));
    expect(pages).toBe(Math.ceil(herd.length / 2));
  });

  it('sort=name puts every spelling of a name together, ties by id', async () => {
    const { pets } = await walk('sort=name&limit=2');
    expect(pets.slice(0, 3).map((pet) => pet.name)).toEqual(['Alfie', 'alfie', 'Alfie']);
    expect(pets.slice(3, 6).map((pet) => pet.name.toLowerCase())).toEqual([
      'bella',
      'bella',
      'bella',
    ]);
  });

  it('sort=arrived lists the animals of unknown arrival last, across the pages', async () => {
    const { pets } = await walk('sort=arrived&limit=2');
    const unknown = herd.filter((pet) => pet.arrivedAt === null).length;
    expect(unknown).toBeGreaterThan(2);
    expect(pets.slice(-unknown).every((pet) => pet.arrivedAt === null)).toBe(true);
    expect(pets.slice(0, -unknown).every((pet) => pet.arrivedAt !== null)).toBe(true);
  });

  it.each(ORDERS)(
    'sort=%s with a filter: the filtered animals in that order',
    async (sort, order) => {
      const { pets } = await walk(`sort=${sort}&goodWithCats=true&limit=2`);
      expect(ids(pets)).toEqual(ids(herd.filter((pet) => pet.goodWithCats === true).sort(order)));
    },
  );

  it('the cursor alone continues the same sort and filters', async () => {
    const first = await api.fetch('/v1/pets?sort=name&coatLength=short&limit=1');
    const rest = await list(`cursor=${cursorOf(first)}&limit=100`);
    expect(ids([...((await first.json()) as TPet[]), ...rest])).toEqual(
      ids(herd.filter((pet) => pet.coatLength === 'short').sort(byName)),
    );
  });

  it.each([
    ['sort=arrived', 'sort'],
    ['sort=newest', 'sort'],
    ['sort=oldest', 'sort'],
    ['goodWithCats=false', 'goodWithCats'],
    ['goodWithDogs=true', 'goodWithDogs'],
    ['energyLevel=high', 'energyLevel'],
    ['feeMax=0&feeCurrency=GBP', 'feeMax'],
  ])('refuses a cursor of sort=name&goodWithCats=true with %s: 400', async (other, field) => {
    const first = await api.fetch('/v1/pets?sort=name&goodWithCats=true&limit=1');
    const cursor = cursorOf(first);
    expect(cursor).not.toBe('');
    const response = await api.fetch(`/v1/pets?cursor=${cursor}&${other}`);
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.details?.[0]?.field).toBe('query.cursor');
    expect(body.message).toContain(field);
    // Sent with its own sort and filters, it is taken.
    const same = await api.fetch(`/v1/pets?cursor=${cursor}&sort=name&goodWithCats=true`);
    expect(same.status).toBe(200);
  });

  it('takes sort=newest with a cursor of the default order: the same list', async () => {
    const first = await api.fetch('/v1/pets?limit=2');
    const next = await api.fetch(`/v1/pets?cursor=${cursorOf(first)}&sort=newest&limit=2`);
    expect(next.status).toBe(200);
    expect(ids((await next.json()) as TPet[])).toEqual(newestWhere(() => true).slice(2, 4));
  });
});
