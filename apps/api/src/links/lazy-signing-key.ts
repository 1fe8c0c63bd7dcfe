import { signingKey } from '@pets/store/signing-keys.repository';
import type { Pool } from 'pg';

/**
 * A signing key of the database (signing_keys), read (or made) on first use and kept, so an API
 * that starts while the database is down still starts; a failed read is forgotten, and the next
 * use tries again. The order links and the account links each keep one.
 */
export const lazySigningKey = (pool: Pool, name: string): (() => Promise<Buffer>) => {
  let key: Promise<Buffer> | undefined;
  return () => {
    if (key === undefined) {
      key = signingKey(pool, name).catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    }
    return key;
  };
};
