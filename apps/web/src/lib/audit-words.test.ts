import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS } from '@pets/contract/site';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_OPTIONS, auditLine, changesInWords, petHistoryHref } from './audit-words';

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
      auditLine({ action: 'robot.danced', targetType: 'robot', targetId: '4', details: {} }),
    ).toEqual({ did: 'robot.danced robot 4' });
  });
});

describe('every action the audit log can hold', () => {
  /** The line as the page reads it after the person's name. */
  const read = (action: string, details: Record<string, unknown> = {}) => {
    const targetType = AUDIT_ACTIONS[action as keyof typeof AUDIT_ACTIONS];
    const line = auditLine({ action, targetType, targetId: '3', details });
    return `${line.did}${line.target ? ` ${line.target.text}` : ''}${line.changes ?? ''}`;
  };

  it.each(AUDIT_ACTION_NAMES)('%s reads in words, with or without its details', (action) => {
    for (const line of [read(action), read(action, { name: 'Rex', role: 'staff' })]) {
      expect(line).not.toContain(action);
      expect(line).not.toMatch(/\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z_]+\b|undefined|null|\[object/);
      expect(line).toMatch(/^[a-z]/);
    }
  });

  it('each has a label of its own in the Action filter', () => {
    expect(AUDIT_ACTION_OPTIONS.map(([action]) => action)).toEqual(AUDIT_ACTION_NAMES);
    const labels = AUDIT_ACTION_OPTIONS.map(([, label]) => label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('says account and session lines as people would', () => {
    expect(read('session.started', { method: 'password' })).toBe('signed in');
    expect(read('session.started', { method: 'passkey' })).toBe('signed in with a passkey');
    expect(read('account.created', { role: 'staff' })).toBe(
      'created the account of account #3, as staff',
    );
    expect(
      auditLine(
        {
          action: 'account.invited',
          targetType: 'account',
          targetId: '4',
          details: { role: 'admin' },
        },
        { people: new Map([['4', 'Anna Ortiz']]) },
      ),
    ).toEqual({ did: 'invited', target: { text: 'Anna Ortiz' }, changes: ', as admin' });
    expect(read('account.role_changed', { name: 'Anna Ortiz', role: 'admin' })).toBe(
      'made Anna Ortiz an admin',
    );
    expect(read('session.ended_everywhere', { sessions: 2 })).toBe(
      'signed out everywhere (2 sessions ended)',
    );
    expect(
      read('plan.approved', {
        organizationName: 'Shelter Apps',
        to: 'enterprise',
        rpm: 600,
        rpd: 50000,
      }),
    ).toBe('approved the Enterprise plan for Shelter Apps: 600 requests a minute, 50,000 a day');
    expect(read('api_key.created', { name: 'Shop', start: 'pets_live_AbCd' })).toBe(
      'created the API key “Shop” (pets_live_AbCd…)',
    );
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
