import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A PostgreSQL database of this test run alone, on the server of `serverUrl`, dropped afterwards
 * (with FORCE, so connections the API left open do not keep it alive).
 */
export type TTestDatabase = { name: string; url: string; drop: () => Promise<void> };

const withClient = async <T>(serverUrl: string, work: (client: Client) => Promise<T>) => {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot connect to PostgreSQL at ${serverUrl.replace(/\/\/[^@]*@/, '//***@')} ` +
        `(set TEST_DATABASE_URL): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

export const createTestDatabase = async (serverUrl: string): Promise<TTestDatabase> => {
  const name = `pets_web_e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => undefined),
  };
};
