import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate } from '../database/migrate';

export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export type TTestDatabase = {
  /** URL of a database of its own, migrated unless asked otherwise. */
  url: string;
  name: string;
  /** Drops the database (closing whatever connections are still open to it). */
  drop: () => Promise<void>;
};

const withAdmin = async <T>(adminUrl: string, work: (client: Client) => Promise<T>) => {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/**
 * Creates a uniquely named database on TEST_DATABASE_URL's server (default: the local
 * PostgreSQL at 127.0.0.1:5432), applies the migrations with migrate() unless
 * `{ migrated: false }`, and hands back its URL and a drop() for afterAll.
 */
export const createTestDatabase = async ({
  migrated = true,
  adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL,
}: {
  migrated?: boolean;
  adminUrl?: string;
} = {}): Promise<TTestDatabase> => {
  const name = `pets_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = () =>
    withAdmin(adminUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
  if (migrated) {
    try {
      await migrate(url.toString());
    } catch (error) {
      await drop();
      throw error;
    }
  }
  return { url: url.toString(), name, drop };
};
