import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { EMBEDDED_START_PARAMS } from './embedded-params.js';
import { migrate } from './migrate.js';
import { startPgliteServer } from './pglite-server.js';

/**
 * A child process's whole life: create a new embedded database in the data directory given as
 * its argument, apply the migrations, close it and exit. ./embedded.ts runs it when the directory
 * is new, so that initdb's second PGlite instance and the first migrations' memory (together
 * ~1.2 GB at their peak; PGlite's WebAssembly memory never shrinks) leave with this process instead
 * of staying resident in the API's. It tells its parent the migrations it applied, then exits 0;
 * any failure is one line on stderr and exit 1.
 */
const main = async (pgdata: string): Promise<void> => {
  const db = await PGlite.create(pgdata, { startParams: EMBEDDED_START_PARAMS });
  const password = randomBytes(18).toString('base64url');
  const server = await startPgliteServer({ db, password });
  try {
    const url = `postgresql://postgres:${password}@${server.host}:${server.port}/postgres`;
    const { applied } = await migrate(url);
    process.send?.({ applied });
  } finally {
    await server.stop(0);
    await db.close();
  }
};

const pgdata = process.argv[2];
if (!pgdata) {
  process.stderr.write('embedded-create: the data directory is missing\n');
  process.exit(1);
}
main(pgdata).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  },
);
