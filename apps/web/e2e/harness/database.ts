import { createTestDatabase as createDatabase, type TTestDatabase } from '@pets/db/testing';

export type { TTestDatabase };

/**
 * A PostgreSQL database of this test run alone, on the server of `serverUrl`, dropped afterwards
 * (with FORCE, so connections the API left open do not keep it alive). Left unmigrated: the API
 * migrates it when it starts, as in production. (@pets/db/testing is the one implementation.)
 */
export const createTestDatabase = (serverUrl: string): Promise<TTestDatabase> =>
  createDatabase({ adminUrl: serverUrl, migrated: false, namePrefix: 'pets_web_e2e' });
