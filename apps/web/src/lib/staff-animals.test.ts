import { PET_DETAIL_FACTS, ZPetCoatLength, ZPetEnergyLevel } from '@pets/contract/schemas';
import { describe, expect, it } from 'vitest';
import {
  BULK_EDIT_MAX,
  BULK_GROUPS,
  bulkChangeOf,
  isFiltered,
  listPetsQueryOf,
  parseStaffAnimalsQuery,
  selectedPetIds,
  staffAnimalsHref,
} from './staff-animals';

const parse = (search: string) =>
  parseStaffAnimalsQuery(Object.fromEntries(new URLSearchParams(search)));

describe('the animals list address', () => {
  it('reads each filter listPets takes, and writes it back the same', () => {
    const query = parse(
      'name=%20Mr%20%20Whi%20&status=pending&category=2&goodWithCats=true&specialNeeds=false' +
        '&energyLevel=high&coatLength=long&select=all',
    );
    expect(query).toMatchObject({
      name: 'Mr Whi',
      status: 'pending',
      categoryId: 2,
      facts: { goodWithCats: true, specialNeeds: false },
      energyLevel: 'high',
      coatLength: 'long',
      selectAll: true,
    });
    expect(isFiltered(query)).toBe(true);
    expect(staffAnimalsHref(query)).toBe(
      '/staff/animals?name=Mr+Whi&status=pending&category=2&goodWithCats=true' +
        '&specialNeeds=false&energyLevel=high&coatLength=long',
    );
    expect(listPetsQueryOf(query, 20)).toEqual({
      limit: 20,
      name: 'Mr Whi',
      status: 'pending',
      categoryId: 2,
      goodWithCats: 'true',
      specialNeeds: 'false',
      energyLevel: 'high',
      coatLength: 'long',
    });
  });

  it('leaves out what listPets would refuse, rather than failing the page', () => {
    const query = parse('name=%21%21&status=lost&category=x&goodWithDogs=maybe&energyLevel=max');
    expect(query).toEqual({ facts: {}, selectAll: false });
    expect(isFiltered(query)).toBe(false);
    expect(staffAnimalsHref(query)).toBe('/staff/animals');
  });

  it('keeps the filters with a page’s cursor and with "select all"', () => {
    const query = parse('status=available');
    expect(staffAnimalsHref(query, { cursor: 'abc', selectAll: true })).toBe(
      '/staff/animals?status=available&cursor=abc&select=all',
    );
  });
});

describe('"Set one field"', () => {
  it('offers Yes, No and Not known for every yes/no detail, and each energy level and coat', () => {
    const keys = BULK_GROUPS.flatMap((group) => group.changes.map((change) => change.key));
    for (const fact of PET_DETAIL_FACTS) {
      expect(keys).toEqual(
        expect.arrayContaining([`${fact}=true`, `${fact}=false`, `${fact}=null`]),
      );
    }
    for (const level of ZPetEnergyLevel.options) {
      expect(keys).toContain(`energyLevel=${level}`);
    }
    for (const coat of ZPetCoatLength.options) {
      expect(keys).toContain(`coatLength=${coat}`);
    }
    expect(keys.some((key) => key.startsWith('status='))).toBe(false);
  });

  it('reads a choice into the one field it sends, and nothing else', () => {
    expect(bulkChangeOf('goodWithCats=true')).toMatchObject({
      body: { goodWithCats: true },
      label: 'Good with cats',
      words: 'Yes',
    });
    expect(bulkChangeOf('specialNeeds=null')?.body).toEqual({ specialNeeds: null });
    expect(bulkChangeOf('energyLevel=null')?.body).toEqual({ energyLevel: null });
    expect(bulkChangeOf('status=adopted')).toBeUndefined();
    expect(bulkChangeOf('goodWithCats=maybe')).toBeUndefined();
    expect(bulkChangeOf(undefined)).toBeUndefined();
  });

  it('takes the ticked ids once each, and nothing that is no id', () => {
    expect(selectedPetIds(['3', '1', '3', 'x', '0', '-2', '99999999999999999999'])).toEqual([3, 1]);
    expect(BULK_EDIT_MAX).toBe(100);
  });
});
