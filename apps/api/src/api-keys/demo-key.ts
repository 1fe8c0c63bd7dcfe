import type { ApiKeyEnvironment } from '@pets/db';
import { ApiKeysRepository } from '@pets/store/api-keys.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';

/**
 * Transaction-scoped advisory lock key of the demo key (arbitrary, distinct from Prisma's 72707369
 * and from the seed's, 72707370, in @pets/db).
 */
const DEMO_KEY_LOCK_KEY = 72_707_371;

/**
 * The demo key's name: `pnpm keys list` marks the key so named as the demo key (never showing
 * the secret), so it can be found, and revoked, after its one showing.
 */
export const DEMO_KEY_NAME = 'demo';

/**
 * On a database that has no API key at all (a fresh install), creates a `free` key named "demo"
 * and returns it: the only moment the key exists in plain text. Otherwise returns null. Safe when
 * several processes start at once: exactly one of them creates the key.
 */
export const ensureDemoKey = (pool: Pool, environment: ApiKeyEnvironment): Promise<string | null> =>
  withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [DEMO_KEY_LOCK_KEY]);
    const keys = new ApiKeysRepository(client);
    if ((await keys.count()) > 0) {
      return null;
    }
    const { key } = await keys.create({ name: DEMO_KEY_NAME, plan: 'free', environment });
    return key;
  });
