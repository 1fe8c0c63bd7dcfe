import { describe, expect, it } from 'vitest';
import { PET_PHOTOS_MAX } from '../rules/photo-limit';
import {
  isCalendarDate,
  latestArrivalDate,
  PET_BREED_MAX_LENGTH,
  PET_DESCRIPTION_MAX_LENGTH,
  PET_UNKNOWN_DETAILS,
  PETS_CURSOR,
  type TPetsListFilters,
  ZListPetsQuery,
  ZNewPet,
  ZPet,
  ZPetAge,
  ZPetSex,
  ZPetSize,
  ZPetUpdate,
} from './pet';
import { ZPetPhoto, ZPetPhotoOrder, ZPetPhotoParams } from './photo';

const newPet = (fields: Record<string, unknown>) =>
  ZNewPet.safeParse({ name: 'Rex', categoryId: 1, ...fields });
const update = (fields: Record<string, unknown>) => ZPetUpdate.safeParse(fields);
const messagesOf = (result: { error?: { issues: { message: string; path: unknown[] }[] } }) =>
  result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
const query = (input: Record<string, unknown>) => ZListPetsQuery.safeParse(input);
const cursorText = (cursor: string) => Buffer.from(cursor, 'base64url').toString();
const asCursor = (text: string) => Buffer.from(text).toString('base64url');

describe('the profile enums', () => {
  it('have exactly the values of the issue', () => {
    expect(ZPetSex.options).toEqual(['male', 'female', 'unknown']);
    expect(ZPetAge.options).toEqual(['baby', 'young', 'adult', 'senior']);
    expect(ZPetSize.options).toEqual(['small', 'medium', 'large', 'xlarge']);
  });

  it.each([
    ['sex', 'Male'],
    ['sex', 'm'],
    ['age', 'puppy'],
    ['age', 3],
    ['size', 'XL'],
    ['size', ''],
  ])('refuses %s %j', (field, value) => {
    expect(newPet({ [field]: value }).success).toBe(false);
    expect(update({ [field]: value }).success).toBe(false);
  });
});

describe('NewPet: every profile field is optional, null for unknown', () => {
  it('takes a pet without a profile, as before', () => {
    const result = newPet({});
    expect(result.success).toBe(true);
    expect(result.data).not.toHaveProperty('sex');
  });

  it('takes every field', () => {
    const profile = {
      description: 'Loves naps.\nShy at first.',
      sex: 'female',
      age: 'senior',
      size: 'xlarge',
      breed: 'Great Dane',
      arrivedAt: '2024-02-29',
    };
    expect(newPet(profile)).toMatchObject({ success: true, data: profile });
  });

  it('takes null for each, meaning unknown', () => {
    const nulls = {
      description: null,
      sex: null,
      age: null,
      size: null,
      breed: null,
      arrivedAt: null,
    };
    expect(newPet(nulls)).toMatchObject({ success: true, data: nulls });
  });

  it('trims description and breed', () => {
    expect(newPet({ description: '  Calm.  ', breed: ' Tabby ' }).data).toMatchObject({
      description: 'Calm.',
      breed: 'Tabby',
    });
  });
});

describe('description and breed: bounded, storable plain text', () => {
  it.each([
    ['description', PET_DESCRIPTION_MAX_LENGTH],
    ['breed', PET_BREED_MAX_LENGTH],
  ])('%s takes up to %i characters, not one more', (field, max) => {
    expect(newPet({ [field]: 'a'.repeat(max) }).success).toBe(true);
    expect(messagesOf(newPet({ [field]: 'a'.repeat(max + 1) }))).toEqual([
      `${field}: must be at most ${max} characters`,
    ]);
  });

  it.each(['description', 'breed'])('%s refuses an empty text: null says "none"', (field) => {
    expect(messagesOf(newPet({ [field]: '   ' }))?.[0]).toMatch(
      new RegExp(`^${field}: must not be empty \\(send null`),
    );
  });

  it.each(['description', 'breed'])('%s refuses the NUL character and lone surrogates', (field) => {
    expect(messagesOf(newPet({ [field]: 'a\u0000b' }))).toEqual([
      `${field}: must not contain the NUL character (U+0000)`,
    ]);
    expect(messagesOf(update({ [field]: 'a\uD800b' }))?.[0]).toMatch(/unpaired surrogate/);
  });

  it.each(['description', 'breed'])('%s refuses what is not text', (field) => {
    expect(messagesOf(newPet({ [field]: 42 }))).toEqual([`${field}: must be a string or null`]);
  });

  it('keeps any script and emoji', () => {
    expect(newPet({ description: '名字は「ポチ」🐶', breed: 'Shiba Inu (柴犬)' }).success).toBe(
      true,
    );
  });
});

describe('arrivedAt: a real calendar date, not in the future', () => {
  it.each(['2026-03-03', '2024-02-29', '1900-01-01', '2000-12-31'])('accepts %s', (arrivedAt) => {
    expect(newPet({ arrivedAt }).success).toBe(true);
  });

  it.each([
    '2026-02-30',
    '2023-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-3-3',
    '03/03/2026',
    '2026-03-03T00:00:00Z',
    ' 2026-03-03',
    '',
    '+02026-03-03',
  ])('refuses %j', (arrivedAt) => {
    expect(messagesOf(newPet({ arrivedAt }))).toEqual([
      'arrivedAt: must be a real date written YYYY-MM-DD',
    ]);
  });

  it('refuses a date before 1900 and a date in the future everywhere', () => {
    expect(messagesOf(newPet({ arrivedAt: '1899-12-31' }))).toEqual([
      'arrivedAt: must not be before 1900-01-01',
    ]);
    expect(messagesOf(newPet({ arrivedAt: '2999-01-01' }))).toEqual([
      'arrivedAt: must not be in the future',
    ]);
    expect(messagesOf(update({ arrivedAt: 20260303 }))).toEqual([
      'arrivedAt: must be a date YYYY-MM-DD or null',
    ]);
  });

  it('takes today in the furthest time zone (UTC+14), not the day after', () => {
    // 11:00 UTC on 3 March is already 4 March in Kiribati, and not yet 5 March anywhere.
    const now = new Date('2026-03-03T11:00:00Z');
    expect(latestArrivalDate(now)).toBe('2026-03-04');
    expect(latestArrivalDate(new Date('2026-03-03T09:59:59Z'))).toBe('2026-03-03');
    const today = latestArrivalDate();
    expect(newPet({ arrivedAt: today }).success).toBe(true);
    const tomorrow = new Date(`${today}T00:00:00Z`);
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
    expect(newPet({ arrivedAt: tomorrow.toISOString().slice(0, 10) }).success).toBe(false);
  });

  it('isCalendarDate knows the calendar', () => {
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('0000-01-01')).toBe(false);
  });
});

describe('PetUpdate: each profile field optional, null clears it', () => {
  it('leaves out what it does not name', () => {
    expect(update({ age: 'adult' })).toEqual({ success: true, data: { age: 'adult' } });
  });

  it('keeps null, which clears the field', () => {
    expect(update({ description: null, breed: null, arrivedAt: null })).toEqual({
      success: true,
      data: { description: null, breed: null, arrivedAt: null },
    });
  });

  it('refuses photos: they have their own operations', () => {
    expect(update({ photos: [] }).success).toBe(false);
    expect(newPet({ photos: [] }).success).toBe(false);
  });
});

describe('Pet: the profile is always present', () => {
  const pet = {
    id: 1,
    name: 'Rex',
    categoryId: 1,
    status: 'available',
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

  it.each(['description', 'sex', 'age', 'size', 'breed', 'arrivedAt', 'photos'])(
    'needs %s (null when unknown, [] for no photos)',
    (field) => {
      const { [field as keyof typeof pet]: _left, ...rest } = pet;
      expect(ZPet.safeParse(rest).success).toBe(false);
    },
  );

  it('refuses null photos and more than the limit', () => {
    expect(ZPet.safeParse({ ...pet, photos: null }).success).toBe(false);
    const photo = {
      id: 1,
      width: 160,
      height: 120,
      placeholder: 'AAAA',
      sizes: [{ width: 160, height: 120, url: 'http://localhost:4000/media/a-160.webp' }],
    };
    expect(ZPet.safeParse({ ...pet, photos: [photo] }).success).toBe(true);
    const tooMany = Array.from({ length: PET_PHOTOS_MAX + 1 }, () => photo);
    expect(ZPet.safeParse({ ...pet, photos: tooMany }).success).toBe(false);
  });
});

describe('PetPhoto', () => {
  const photo = {
    id: 7,
    width: 1200,
    height: 900,
    placeholder: '1QcSHQRnh493V4dIh4eXh1h4kJUI',
    sizes: [
      { width: 160, height: 120, url: 'https://media.example.org/pets/a-160.webp' },
      { width: 1200, height: 900, url: 'https://media.example.org/pets/a-1200.webp' },
    ],
  };

  it('has an id, the size of its largest file, a placeholder and absolute urls', () => {
    expect(ZPetPhoto.safeParse(photo).success).toBe(true);
    expect(ZPetPhoto.safeParse({ ...photo, sizes: [] }).success).toBe(false);
    expect(
      ZPetPhoto.safeParse({ ...photo, sizes: [{ width: 160, height: 120, url: '/media/a.webp' }] })
        .success,
    ).toBe(false);
  });
});

describe('PetPhotoOrder and the photo path', () => {
  it('names photos once each', () => {
    expect(ZPetPhotoOrder.safeParse({ photoIds: [3, 1, 2] }).success).toBe(true);
    expect(ZPetPhotoOrder.safeParse({ photoIds: [] }).success).toBe(true);
    expect(messagesOf(ZPetPhotoOrder.safeParse({ photoIds: [3, 3] }))).toEqual([
      'photoIds: must not name a photo twice',
    ]);
    expect(ZPetPhotoOrder.safeParse({ photoIds: [0] }).success).toBe(false);
    expect(ZPetPhotoOrder.safeParse({ photoIds: '1,2' }).success).toBe(false);
    expect(ZPetPhotoOrder.safeParse({}).success).toBe(false);
    expect(ZPetPhotoOrder.safeParse({ photoIds: [1], extra: 1 }).success).toBe(false);
    const tooMany = Array.from({ length: PET_PHOTOS_MAX + 1 }, (_, index) => index + 1);
    expect(ZPetPhotoOrder.safeParse({ photoIds: tooMany }).success).toBe(false);
  });

  it('reads both ids from the path', () => {
    expect(ZPetPhotoParams.safeParse({ petId: '42', photoId: '7' })).toEqual({
      success: true,
      data: { petId: 42, photoId: 7 },
    });
    expect(ZPetPhotoParams.safeParse({ petId: '42', photoId: 'order' }).success).toBe(false);
  });
});

describe('listPets: the sex, age and size filters', () => {
  it.each([
    ['sex', 'female'],
    ['age', 'baby'],
    ['size', 'xlarge'],
  ])('reads %s=%s', (field, value) => {
    expect(query({ [field]: value })).toMatchObject({ success: true, data: { [field]: value } });
  });

  it.each([
    ['sex', 'FEMALE'],
    ['age', 'baby,young'],
    ['size', ''],
    ['size', ['small', 'large']],
  ])('refuses %s=%j', (field, value) => {
    expect(query({ [field]: value }).success).toBe(false);
  });
});

describe('listPets: the name search', () => {
  it.each([
    ['bis', 'bis'],
    ['  Mr.   Whiskers ', 'Mr Whiskers'],
    ["o'mal", 'o mal'],
    ['Jean-Luc', 'Jean Luc'],
    ['Zoé', 'Zoé'],
    ['猫', '猫'],
    ['r2', 'r2'],
  ])('reads %j into its words %j', (name, words) => {
    expect(query({ name })).toMatchObject({ success: true, data: { name: words } });
  });

  it('refuses an empty search, one without a letter or digit, and a long one', () => {
    expect(messagesOf(query({ name: '' }))).toEqual(['name: name must not be empty']);
    expect(messagesOf(query({ name: ' -.!' }))).toEqual([
      'name: name must contain a letter or a digit',
    ]);
    expect(messagesOf(query({ name: 'a'.repeat(101) }))).toEqual([
      'name: name must be at most 100 characters',
    ]);
    expect(query({ name: ['a', 'b'] }).success).toBe(false);
  });
});

describe('listPets: include', () => {
  it('takes total_count only', () => {
    expect(query({ include: 'total_count' })).toMatchObject({
      success: true,
      data: { include: 'total_count' },
    });
    expect(query({ include: 'photos' }).success).toBe(false);
  });
});

describe('PETS_CURSOR carries the new filters', () => {
  const filters = { sex: 'male', age: 'young', size: 'small', name: 'Mr Whiskers' } as const;

  it('in the fixed order after status, categoryId and id, the name percent-encoded', () => {
    const cursor = PETS_CURSOR.encode(12, { status: 'available', ...filters });
    expect(cursorText(cursor)).toBe(
      'v2:12:available:::male:young:small:Mr%20Whiskers::::::::::::::::',
    );
    expect(PETS_CURSOR.read(cursor, {})).toEqual({
      before: 12n,
      filters: { status: 'available', ...filters },
    });
  });

  it('keeps a name in any script in an ASCII cursor', () => {
    const cursor = PETS_CURSOR.encode(5, { name: 'Zoé 猫' });
    expect(cursorText(cursor)).toBe('v2:5:::::::Zo%C3%A9%20%E7%8C%AB::::::::::::::::');
    expect(PETS_CURSOR.read(cursor, { name: 'Zoé 猫' })).toEqual({
      before: 5n,
      filters: { name: 'Zoé 猫' },
    });
  });

  it.each<[string, TPetsListFilters]>([
    ['sex', { sex: 'female' }],
    ['age', { age: 'adult' }],
    ['size', { size: 'large' }],
    ['name', { name: 'Mr Whisk' }],
  ])('refuses a different %s sent with it', (field, sent) => {
    const cursor = PETS_CURSOR.encode(12, filters);
    expect(PETS_CURSOR.read(cursor, sent)).toMatchObject({ mismatch: field });
  });

  it('refuses a filter the cursor did not carry', () => {
    const cursor = PETS_CURSOR.encode(12, { status: 'sold' });
    expect(PETS_CURSOR.read(cursor, { size: 'small' })).toEqual({
      mismatch: 'size',
      issued: undefined,
    });
  });

  it.each([
    'v2:12::::Male:::',
    'v2:12:::::puppy::',
    'v2:12::::::huge:',
    'v2:12:::::::Mr Whiskers',
    'v2:12:::::::mr.whiskers',
    'v2:12:::::::%E0%A4%A',
    'v2:12:::::::%2E',
  ])('refuses filters the schemas refuse or would write otherwise: %s', (text) => {
    expect(PETS_CURSOR.read(asCursor(text), {})).toBeNull();
  });

  it('still reads a cursor issued before the profile filters (status, categoryId, id only)', () => {
    const old = asCursor('v2:12:sold:3:');
    expect(PETS_CURSOR.read(old, {})).toEqual({
      before: 12n,
      filters: { status: 'sold', categoryId: 3 },
    });
    expect(PETS_CURSOR.read(old, { sex: 'male' })).toEqual({ mismatch: 'sex', issued: undefined });
    expect(PETS_CURSOR.read(asCursor('v2:12:sold:3'), {})).toBeNull();
  });

  it('stays within the maximum length with every filter at its longest', () => {
    const cursor = PETS_CURSOR.encode(Number.MAX_SAFE_INTEGER, {
      status: 'available',
      categoryId: Number.MAX_SAFE_INTEGER,
      id: Array.from({ length: 100 }, (_, index) => Number.MAX_SAFE_INTEGER - index),
      sex: 'unknown',
      age: 'senior',
      size: 'xlarge',
      name: '猫'.repeat(100),
    });
    expect(query({ cursor })).toMatchObject({ success: true });
  });
});
