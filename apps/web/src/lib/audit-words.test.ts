import { describe, expect, it } from 'vitest';
import { auditLine, changesInWords, petHistoryHref } from './audit-words';

const DOGS = [{ id: 2, name: 'Dogs' }];

const petEntry = (action: string, details: Record<string, unknown>) => ({
  action,
  targetType: 'pet',
  targetId: '12',
  details,
});

describe('auditLine', () => {
  it('says a change of an animal by its name, with the fields in the edit form’s words', () => {
    expect(
      auditLine(
        petEntry('pet.updated', {
          name: 'Rex',
          changes: [{ field: 'goodWithCats', from: null, to: true }],
        }),
      ),
    ).toEqual({
      did: 'changed',
      target: { href: '/staff/animals/12', text: 'Rex' },
      changes: ': Good with cats → Yes',
    });
  });

  it('says photos, creation and status in words', () => {
    expect(auditLine(petEntry('pet.photo_added', { name: 'Rex', photoId: 3 })).did).toBe(
      'added a photo to',
    );
    expect(auditLine(petEntry('pet.photo_removed', { name: 'Rex', photoId: 3 })).did).toBe(
      'removed a photo of',
    );
    expect(auditLine(petEntry('pet.created', { name: 'Rex' }))).toEqual({
      did: 'added',
      target: { href: '/staff/animals/12', text: 'Rex' },
    });
    expect(
      auditLine(
        petEntry('pet.status_changed', {
          name: 'Rex',
          changes: [{ field: 'status', from: 'available', to: 'pending' }],
        }),
      ).changes,
    ).toBe(': Status → Pending');
  });

  it('names an animal by its reference when the entry has no name', () => {
    expect(auditLine(petEntry('pet.updated', {})).target?.text).toBe('animal #12');
  });

  it('says an application’s change, and shows an unknown action as stored', () => {
    expect(
      auditLine({ action: 'order.approved', targetType: 'order', targetId: '7', details: {} }),
    ).toEqual({
      did: 'approved',
      target: { href: '/staff/applications/7', text: 'application A-7' },
    });
    expect(
      auditLine({ action: 'account.invited', targetType: 'account', targetId: '4', details: {} }),
    ).toEqual({ did: 'account.invited account 4' });
  });
});

describe('changesInWords', () => {
  it('words cleared values, categories, colours, fees and long stories', () => {
    expect(
      changesInWords(
        [
          { field: 'goodWithDogs', from: true, to: null },
          { field: 'energyLevel', from: 'low', to: null },
          { field: 'categoryId', from: 1, to: 2 },
          { field: 'colors', from: [], to: ['tan', 'white'] },
          { field: 'adoptionFee', from: null, to: { amount: 9500, currency: 'EUR' } },
          { field: 'description', from: null, to: 'x'.repeat(100) },
        ],
        DOGS,
      ),
    ).toBe(
      `Good with dogs → Not known; Energy → Not said; Category → Dogs; Colours → Tan and white; Adoption fee → €95.00; Story → “${'x'.repeat(59)}…”`,
    );
  });
});

describe('petHistoryHref', () => {
  it('is the audit page filtered to the animal', () => {
    expect(petHistoryHref(12)).toBe('/staff/audit?targetType=pet&targetId=12');
  });
});
