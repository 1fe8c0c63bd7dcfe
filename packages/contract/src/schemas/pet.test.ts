import { describe, expect, it } from 'vitest';
import { MAX_ID, PAGE_SIZE } from './common';
import {
  listPetsQueryIssue,
  PET_IDS_MAX,
  PET_UNKNOWN_DETAILS,
  PETS_CURSOR,
  ZListPetsQuery,
  ZNewPet,
  ZPet,
  ZPetIdParams,
  ZPetStatus,
} from './pet';

const query = (input: Record<string, unknown>) => ZListPetsQuery.safeParse(input);

describe('ZListPetsQuery.limit', () => {
  it('defaults to 20 when omitted', () => {
    expect(query({})).toMatchObject({ success: true, data: { limit: 20 } });
    expect(PAGE_SIZE.default).toBe(20);
  });

  it.each([
    ['1', 1],
    ['100', 100],
    ['42', 42],
    [1, 1],
    [100, 100],
  ])('accepts %j', (limit, expected) => {
    expect(query({ limit })).toMatchObject({ success: true, data: { limit: expected } });
  });

  it.each([
    '0',
    '101',
    '-1',
    0,
    101,
    '1.5',
    1.5,
    '1e1',
    '0x10',
    ' 5',
    '5 ',
    '',
    'abc',
    'NaN',
    ['1', '2'],
    true,
  ])('rejects %j', (limit) => {
    expect(query({ limit }).success).toBe(false);
  });

  it('names the bound that was broken', () => {
    const tooBig = query({ limit: '101' });
    expect(tooBig.success).toBe(false);
    expect(tooBig.error?.issues[0]?.message).toBe('limit must be at most 100');
    expect(query({ limit: '0' }).error?.issues[0]?.message).toBe('limit must be at least 1');
    expect(query({ limit: '2.5' }).error?.issues[0]?.message).toBe('limit must be an integer');
  });
});

describe('ZListPetsQuery.status', () => {
  it.each(['available', 'pending', 'sold'])('accepts %s', (status) => {
    expect(query({ status })).toMatchObject({ success: true, data: { status } });
  });

  it('is absent when not given: no filtering', () => {
    expect(query({}).data?.status).toBeUndefined();
  });

  it.each(['adopted', 'AVAILABLE', '', 'available,sold'])('rejects unknown status %j', (status) => {
    expect(query({ status }).success).toBe(false);
  });
});

describe('ZListPetsQuery.categoryId', () => {
  it('is absent when not given, and read from its decimal text', () => {
    expect(query({}).data?.categoryId).toBeUndefined();
    expect(query({ categoryId: '7' })).toMatchObject({ success: true, data: { categoryId: 7 } });
  });

  it.each(['0', '-2', 'dogs', '1.5', String(MAX_ID + 1)])('rejects %j', (categoryId) => {
    expect(query({ categoryId }).success).toBe(false);
  });
});

describe('ZListPetsQuery: the details, the fee and the sort', () => {
  it.each([
    'goodWithChildren',
    'goodWithDogs',
    'goodWithCats',
    'houseTrained',
    'spayedNeutered',
    'vaccinated',
    'specialNeeds',
  ])('reads %s from the text true or false, and refuses anything else', (name) => {
    expect(query({ [name]: 'true' })).toMatchObject({ success: true, data: { [name]: true } });
    expect(query({ [name]: 'false' })).toMatchObject({ success: true, data: { [name]: false } });
    expect(query({ [name]: true })).toMatchObject({ success: true, data: { [name]: true } });
    expect(query({}).data).not.toHaveProperty(name);
    for (const bad of ['yes', 'TRUE', '1', '', 'null', ['true', 'true']]) {
      const result = query({ [name]: bad });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ path: [name], message: `${name} must be true or false` }),
      ]);
    }
  });

  it('takes energyLevel and coatLength as their enums', () => {
    expect(query({ energyLevel: 'low', coatLength: 'hairless' })).toMatchObject({
      success: true,
      data: { energyLevel: 'low', coatLength: 'hairless' },
    });
    expect(query({ energyLevel: 'sleepy' }).success).toBe(false);
    expect(query({ coatLength: 'curly' }).success).toBe(false);
  });

  it('takes feeMax as a whole number of minor units from 0, and feeCurrency as ISO 4217', () => {
    expect(query({ feeMax: '0', feeCurrency: 'GBP' })).toMatchObject({
      success: true,
      data: { feeMax: 0, feeCurrency: 'GBP' },
    });
    expect(query({ feeMax: '10000000' }).success).toBe(true);
    for (const [bad, message] of [
      ['-1', 'feeMax must not be negative'],
      ['1.5', 'feeMax must be an integer'],
      ['10000001', 'feeMax must be at most 10000000'],
      ['cheap', 'feeMax must be an integer'],
    ]) {
      expect(query({ feeMax: bad }).error?.issues[0]?.message, bad).toBe(message);
    }
    for (const [bad, message] of [
      ['gbp', 'feeCurrency must be an ISO 4217 code in capitals, such as EUR'],
      ['XYZ', 'feeCurrency must be an ISO 4217 currency code, such as EUR'],
    ]) {
      expect(query({ feeCurrency: bad }).error?.issues[0]?.message, bad).toBe(message);
    }
  });

  it('needs feeCurrency with feeMax: amounts in two currencies do not compare', () => {
    expect(listPetsQueryIssue({ feeMax: 5000 })).toEqual({
      field: 'feeCurrency',
      message:
        'feeCurrency is required with feeMax: fees in different currencies cannot be compared',
    });
    expect(listPetsQueryIssue({ feeMax: 5000, feeCurrency: 'EUR' })).toBeUndefined();
    expect(listPetsQueryIssue({ feeCurrency: 'EUR' })).toBeUndefined();
    expect(listPetsQueryIssue({})).toBeUndefined();
  });

  it('takes the orders, and leaves sort out when not sent (a cursor carries its own)', () => {
    expect(query({}).data).not.toHaveProperty('sort');
    for (const sort of ['newest', 'oldest', 'name', 'arrived', 'updatedAt']) {
      expect(query({ sort })).toMatchObject({ success: true, data: { sort } });
    }
    expect(query({ sort: 'price' }).success).toBe(false);
  });
});

describe('ZListPetsQuery.id', () => {
  const idIssues = (id: unknown) =>
    query({ id }).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const shape = 'id must be one id or up to 100 ids separated by commas';

  it('is absent when not given: no filtering', () => {
    expect(query({}).data?.id).toBeUndefined();
  });

  it.each([
    ['42', [42]],
    ['7,42,19', [42, 19, 7]],
    ['42,42,7', [42, 7]],
    [String(MAX_ID), [MAX_ID]],
    ['007', [7]],
  ])('reads %j into its distinct ids, largest first', (id, expected) => {
    expect(query({ id })).toMatchObject({ success: true, data: { id: expected } });
  });

  it(`takes up to ${PET_IDS_MAX} ids`, () => {
    const ids = Array.from({ length: PET_IDS_MAX }, (_, index) => MAX_ID - index);
    expect(query({ id: ids.join(',') })).toMatchObject({ success: true, data: { id: ids } });
  });

  it.each([
    ['', 'id: id must not be empty'],
    ['abc', `id: ${shape}; "abc" is not an integer`],
    ['1,,2', `id: ${shape}; "" is not an integer`],
    ['1, 2', `id: ${shape}; " 2" is not an integer`],
    ['1.5', `id: ${shape}; "1.5" is not an integer`],
    ['0', `id: ${shape}; "0" is not a positive integer`],
    ['-3', `id: ${shape}; "-3" is not a positive integer`],
    [String(MAX_ID + 1), `id: ${shape}; "${MAX_ID + 1}" is out of range`],
    ['7;8', `id: ${shape}; "7;8" is not an integer`],
    [['1', '2'], `id: ${shape}, sent once`],
    [
      Array.from({ length: PET_IDS_MAX + 1 }, (_, index) => index + 1).join(','),
      `id: ${shape}; got 101`,
    ],
    ['1'.repeat(2_000), `id: id is too long: ${shape}`],
  ])('refuses %j with one clear message on id', (id, message) => {
    expect(idIssues(id)).toEqual([message]);
  });

  it('cuts a long bad element in its message', () => {
    expect(idIssues(`1,${'x'.repeat(50)}`)).toEqual([
      `id: ${shape}; "${'x'.repeat(20)}..." is not an integer`,
    ]);
  });

  it('combines with the other filters', () => {
    expect(query({ id: '3,4', status: 'sold', categoryId: '2', limit: '1' })).toMatchObject({
      success: true,
      data: { id: [4, 3], status: 'sold', categoryId: 2, limit: 1 },
    });
  });
});

describe('ZPetIdParams', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    [String(MAX_ID), MAX_ID],
  ])('accepts %s', (petId, expected) => {
    expect(ZPetIdParams.safeParse({ petId })).toMatchObject({
      success: true,
      data: { petId: expected },
    });
  });

  it.each([
    '0',
    '-1',
    String(MAX_ID + 1),
    '9223372036854775807',
    '9223372036854775808',
    '1.0',
    'abc',
    '12abc',
    '',
  ])('rejects %j', (petId) => {
    expect(ZPetIdParams.safeParse({ petId }).success).toBe(false);
  });
});

describe('ZNewPet', () => {
  it('defaults status to available', () => {
    expect(ZNewPet.parse({ name: 'Biscuit', categoryId: 1 })).toEqual({
      name: 'Biscuit',
      categoryId: 1,
      status: 'available',
    });
  });

  it('keeps an explicit status', () => {
    expect(ZNewPet.parse({ name: 'Rex', categoryId: 2, status: 'sold' }).status).toBe('sold');
  });

  it('trims the name', () => {
    expect(ZNewPet.parse({ name: '  Biscuit ', categoryId: 1 }).name).toBe('Biscuit');
  });

  it.each([
    ['missing name', { categoryId: 1 }, 'name'],
    ['empty name', { name: '', categoryId: 1 }, 'name'],
    ['blank name', { name: '   ', categoryId: 1 }, 'name'],
    ['name too long', { name: 'x'.repeat(101), categoryId: 1 }, 'name'],
    ['numeric name', { name: 7, categoryId: 1 }, 'name'],
    ['missing categoryId', { name: 'Rex' }, 'categoryId'],
    ['string categoryId', { name: 'Rex', categoryId: '1' }, 'categoryId'],
    ['fractional categoryId', { name: 'Rex', categoryId: 1.5 }, 'categoryId'],
    ['zero categoryId', { name: 'Rex', categoryId: 0 }, 'categoryId'],
    ['unsafe categoryId', { name: 'Rex', categoryId: 2 ** 63 }, 'categoryId'],
    ['unknown status', { name: 'Rex', categoryId: 1, status: 'adopted' }, 'status'],
    ['null status', { name: 'Rex', categoryId: 1, status: null }, 'status'],
  ])('rejects %s', (_label, input, field) => {
    const result = ZNewPet.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });

  it('rejects unknown fields, such as a client-chosen id', () => {
    expect(ZNewPet.safeParse({ id: 5, name: 'Rex', categoryId: 1 }).success).toBe(false);
  });

  it.each([null, undefined, [], 'Rex', 42])('rejects a body that is not an object: %j', (body) => {
    expect(ZNewPet.safeParse(body).success).toBe(false);
  });
});

describe('ZNewPet.name: only text the database can store', () => {
  const messageOf = (name: string) =>
    ZNewPet.safeParse({ name, categoryId: 1 }).error?.issues.map((issue) => issue.message);

  it.each(['a\u0000b', '\u0000'])('refuses the NUL character in %j', (name) => {
    expect(messageOf(name)).toContain('must not contain the NUL character (U+0000)');
  });

  it.each(['\uD800', 'x\uDBFFy', '\uDC00', 'y\uDFFF'])(
    'refuses the lone surrogate in %j',
    (name) => {
      expect(messageOf(name)).toEqual([
        'must be valid Unicode: it contains an unpaired surrogate (U+D800 to U+DFFF)',
      ]);
    },
  );

  it.each(['Rex 🐶', 'Zoë', '名字', '\u0001'])('accepts %j', (name) => {
    expect(ZNewPet.safeParse({ name, categoryId: 1 }).success).toBe(true);
  });
});

describe('ZPet', () => {
  const profile = {
    description: null,
    sex: null,
    age: null,
    size: null,
    breed: null,
    arrivedAt: null,
    ...PET_UNKNOWN_DETAILS,
    photos: [],
    applicationsInReview: 0,
    updatedAt: '2026-11-27T10:00:00.000Z',
  };

  it('has a read-only count of the applications in review: a whole number, never negative', () => {
    const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available', ...profile };
    expect(ZPet.safeParse({ ...pet, applicationsInReview: 3 }).success).toBe(true);
    expect(ZPet.safeParse({ ...pet, applicationsInReview: -1 }).success).toBe(false);
    expect(ZPet.safeParse({ ...pet, applicationsInReview: 1.5 }).success).toBe(false);
    const { applicationsInReview: _count, ...withoutCount } = pet;
    expect(ZPet.safeParse(withoutCount).success).toBe(false);
    expect(ZNewPet.safeParse({ name: 'Rex', categoryId: 1, applicationsInReview: 3 }).success).toBe(
      false,
    );
  });

  it('requires every field of NewPet plus id, the profile (null when unknown) and photos', () => {
    expect(
      ZPet.safeParse({ id: 1, name: 'Rex', categoryId: 1, status: 'available', ...profile })
        .success,
    ).toBe(true);
    expect(
      ZPet.safeParse({ name: 'Rex', categoryId: 1, status: 'available', ...profile }).success,
    ).toBe(false);
    expect(ZPet.safeParse({ id: 1, name: 'Rex', categoryId: 1, ...profile }).success).toBe(false);
    // A Pet as the spec had it, without the profile, is no longer a whole Pet.
    expect(ZPet.safeParse({ id: 1, name: 'Rex', categoryId: 1, status: 'available' }).success).toBe(
      false,
    );
  });

  it('keeps ids inside the safe integer range', () => {
    expect(
      ZPet.safeParse({ id: MAX_ID + 1, name: 'Rex', categoryId: 1, status: 'sold', ...profile })
        .success,
    ).toBe(false);
  });

  it('has exactly the three statuses of the spec', () => {
    expect(ZPetStatus.options).toEqual(['available', 'pending', 'sold']);
  });
});

/** The slots of the details' filters and of the sorts' places, all empty. */
const EMPTY_DETAILS = ':'.repeat(13);
/** A cursor's text with every slot of the 23 empty but the `index`th, which holds `text`. */
const withSlot = (index: number, text: string): string =>
  `v2:12:${Array.from({ length: 23 }, (_, slot) => (slot === index ? text : '')).join(':')}`;

describe('PETS_CURSOR: the cursor of listPets', () => {
  it('carries status, categoryId and id, and reads them back with the contract schemas', () => {
    const filters = { status: 'sold' as const, categoryId: 3, id: [9, 4] };
    const cursor = PETS_CURSOR.encode(12, filters);
    expect(Buffer.from(cursor, 'base64url').toString()).toBe(
      `v2:12:sold:3:9,4:::::::${EMPTY_DETAILS}`,
    );
    expect(PETS_CURSOR.read(cursor, {})).toEqual({ before: 12n, filters });
  });

  it('carries updatedSince, sort and the last updatedAt as milliseconds, and reads them back', () => {
    const filters = {
      updatedSince: '2026-11-27T11:00:00+01:00',
      sort: 'updatedAt' as const,
      updatedAfter: '2026-11-27T10:30:00.123Z',
    };
    const cursor = PETS_CURSOR.encode(12, filters);
    expect(Buffer.from(cursor, 'base64url').toString()).toBe(
      `v2:12::::::::1795773600000:updatedAt:1795775400123${EMPTY_DETAILS}`,
    );
    // Sent again, updatedSince is the same instant in any spelling; a cursor's own is read as UTC.
    expect(
      PETS_CURSOR.read(cursor, { updatedSince: '2026-11-27T10:00:00Z', sort: 'updatedAt' }),
    ).toEqual({ before: 12n, filters: { ...filters, updatedSince: '2026-11-27T10:00:00Z' } });
    expect(PETS_CURSOR.read(cursor, {})).toEqual({
      before: 12n,
      filters: { ...filters, updatedSince: '2026-11-27T10:00:00.000Z' },
    });
    expect(PETS_CURSOR.read(cursor, { updatedSince: '2026-11-27T10:00:00.001Z' })).toMatchObject({
      mismatch: 'updatedSince',
    });
  });

  it('keeps reading cursors issued before the sync filters (seven slots)', () => {
    const old = Buffer.from('v2:12:sold::::::').toString('base64url');
    expect(PETS_CURSOR.read(old, {})).toEqual({ before: 12n, filters: { status: 'sold' } });
  });

  it('carries the details filters, the fee and the sort, and reads them back', () => {
    const filters = {
      goodWithChildren: true,
      goodWithCats: false,
      specialNeeds: false,
      energyLevel: 'low' as const,
      coatLength: 'hairless' as const,
      feeMax: 0,
      feeCurrency: 'GBP',
      sort: 'oldest' as const,
    };
    const cursor = PETS_CURSOR.encode(12, filters);
    expect(Buffer.from(cursor, 'base64url').toString()).toBe(
      'v2:12:::::::::oldest::true::false::::false:low:hairless:0:GBP::',
    );
    expect(PETS_CURSOR.read(cursor, {})).toEqual({ before: 12n, filters });
    expect(PETS_CURSOR.read(cursor, filters)).toEqual({ before: 12n, filters });
    // A yes/no sent the other way, another fee or another sort is another list.
    expect(PETS_CURSOR.read(cursor, { goodWithCats: true })).toMatchObject({
      mismatch: 'goodWithCats',
    });
    expect(PETS_CURSOR.read(cursor, { goodWithDogs: true })).toEqual({
      mismatch: 'goodWithDogs',
      issued: undefined,
    });
    expect(PETS_CURSOR.read(cursor, { feeMax: 1 })).toMatchObject({ mismatch: 'feeMax' });
    expect(PETS_CURSOR.read(cursor, { sort: 'name' })).toMatchObject({ mismatch: 'sort' });
  });

  it.each([
    ['name', { sort: 'name' as const, nameAfter: 'Mr. Whiskers: the 2nd' }],
    ['name, in any script', { sort: 'name' as const, nameAfter: 'Zoé 猫' }],
    ['arrived', { sort: 'arrived' as const, arrivedAfter: '2026-03-03' }],
    ['arrived, among the unknown arrivals', { sort: 'arrived' as const, arrivedAfter: 'unknown' }],
  ])("carries sort=%s and the last animal's place, and reads them back", (_label, filters) => {
    const cursor = PETS_CURSOR.encode(12, filters);
    expect(Buffer.from(cursor, 'base64url').toString()).toMatch(/^[\x20-\x7e]+$/);
    expect(PETS_CURSOR.read(cursor, {})).toEqual({ before: 12n, filters });
    expect(PETS_CURSOR.read(cursor, { sort: filters.sort })).toEqual({ before: 12n, filters });
    expect(PETS_CURSOR.read(cursor, { sort: 'oldest' })).toMatchObject({ mismatch: 'sort' });
  });

  it('writes sort=newest, the order without sort, as no sort: one list, one cursor', () => {
    const newest = PETS_CURSOR.encode(12, { sort: 'newest', status: 'sold' });
    expect(newest).toBe(PETS_CURSOR.encode(12, { status: 'sold' }));
    expect(PETS_CURSOR.read(newest, { sort: 'newest' })).toEqual({
      before: 12n,
      filters: { status: 'sold' },
    });
    const byName = PETS_CURSOR.encode(12, { sort: 'name', nameAfter: 'Bella' });
    expect(PETS_CURSOR.read(byName, { sort: 'newest' })).toEqual({
      mismatch: 'sort',
      issued: 'name',
    });
  });

  it('keeps reading cursors issued before the details and the sorts (ten slots)', () => {
    const old = Buffer.from('v2:12::::::::1795773600000:updatedAt:1795775400123').toString(
      'base64url',
    );
    expect(PETS_CURSOR.read(old, {})).toMatchObject({
      before: 12n,
      filters: { sort: 'updatedAt' },
    });
  });

  it.each([
    'v2:12:adopted::',
    'v2:12::0:',
    'v2:12:::4,9',
    'v2:12:::9,9',
    'v2:12:::x',
    withSlot(10, 'yes'),
    withSlot(12, 'TRUE'),
    withSlot(17, 'sleepy'),
    withSlot(19, '-1'),
    withSlot(19, '007'),
    withSlot(20, 'gbp'),
    withSlot(20, 'XXX'),
    withSlot(21, '%E0%A4%A'),
    withSlot(22, '2026-02-30'),
    withSlot(8, 'newest!'),
  ])('refuses filters the schemas refuse or would write otherwise: %s', (payload) => {
    expect(PETS_CURSOR.read(Buffer.from(payload).toString('base64url'), {})).toBeNull();
  });

  it("stays within the cursor's maximum length with the longest name in it", () => {
    const cursor = PETS_CURSOR.encode(MAX_ID, {
      name: '語'.repeat(100),
      sort: 'name',
      nameAfter: '🐈'.repeat(100),
    });
    expect(query({ cursor })).toMatchObject({ success: true });
    expect(PETS_CURSOR.read(cursor, {})).toMatchObject({
      filters: { nameAfter: '🐈'.repeat(100) },
    });
  });

  it("carries a name as the database holds it, spaces included, and no longer than a name's", () => {
    const spaced = PETS_CURSOR.encode(12, { sort: 'name', nameAfter: ' Rex ' });
    expect(PETS_CURSOR.read(spaced, {})).toMatchObject({ filters: { nameAfter: ' Rex ' } });
    const long = PETS_CURSOR.encode(12, { sort: 'name', nameAfter: 'x'.repeat(101) });
    expect(PETS_CURSOR.read(long, {})).toBeNull();
  });

  it(`stays within the cursor's maximum length with ${PET_IDS_MAX} of the longest ids`, () => {
    const id = Array.from({ length: PET_IDS_MAX }, (_, index) => MAX_ID - index);
    const cursor = PETS_CURSOR.encode(MAX_ID, { status: 'available', categoryId: MAX_ID, id });
    expect(query({ cursor })).toMatchObject({ success: true });
  });
});
