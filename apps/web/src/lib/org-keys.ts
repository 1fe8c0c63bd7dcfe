import type { TOrgKey } from '@pets/contract/site';

/** How soon an expiry reads as "expiring". */
const EXPIRING_MS = 7 * 86_400_000;

export type TKeyStatusLook =
  | { kind: 'active' | 'revoked' | 'expired' }
  | { kind: 'expiring'; at: string }
  | { kind: 'rolled'; until: string };

/**
 * A key's status as the portal says it: revoked, expired, "rolled: old secret valid until ..."
 * while a roll's overlap runs, expiring within a week, or active. Pure, for the list and its test.
 */
export const keyStatusOf = (key: TOrgKey, nowMs: number): TKeyStatusLook => {
  if (key.status !== 'active') {
    return { kind: key.status };
  }
  if (key.previousSecretExpiresAt && Date.parse(key.previousSecretExpiresAt) > nowMs) {
    return { kind: 'rolled', until: key.previousSecretExpiresAt };
  }
  if (key.expiresAt && Date.parse(key.expiresAt) - nowMs < EXPIRING_MS) {
    return { kind: 'expiring', at: key.expiresAt };
  }
  return { kind: 'active' };
};
