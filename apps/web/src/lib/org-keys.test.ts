import type { TOrgKey } from '@pets/contract/site';
import { describe, expect, it } from 'vitest';
import { keyStatusOf } from './org-keys';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const key = (fields: Partial<TOrgKey>): TOrgKey => ({
  id: '1',
  name: 'App',
  start: 'pets_test_abcd',
  mode: 'test',
  readOnly: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
  status: 'active',
  previousSecretExpiresAt: null,
  ...fields,
});

describe('keyStatusOf', () => {
  it('says revoked and expired as the API does', () => {
    expect(keyStatusOf(key({ status: 'revoked' }), NOW)).toEqual({ kind: 'revoked' });
    expect(keyStatusOf(key({ status: 'expired' }), NOW)).toEqual({ kind: 'expired' });
  });

  it('says "rolled" while the old secret works, and not after', () => {
    const until = '2026-11-28T12:00:00.000Z';
    expect(keyStatusOf(key({ previousSecretExpiresAt: until }), NOW)).toEqual({
      kind: 'rolled',
      until,
    });
    expect(
      keyStatusOf(key({ previousSecretExpiresAt: '2026-11-27T11:00:00.000Z' }), NOW).kind,
    ).toBe('active');
  });

  it('says "expiring" within a week of the expiry only', () => {
    expect(keyStatusOf(key({ expiresAt: '2026-12-01T00:00:00.000Z' }), NOW).kind).toBe('expiring');
    expect(keyStatusOf(key({ expiresAt: '2027-01-01T00:00:00.000Z' }), NOW).kind).toBe('active');
  });
});
