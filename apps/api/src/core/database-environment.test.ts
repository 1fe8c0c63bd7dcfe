import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApiProcess, startApiProcess } from '../test/api-process';
import { runCliProcess } from '../test/cli-process';
import { testDatabases } from '../test/test-database';

/**
 * The API refuses to start on a database of another environment: the first run records
 * its APP_ENV in the database; an API with another APP_ENV stops at once with one line naming both;
 * `pnpm db:environment --set` changes the record on purpose.
 */

const databases = testDatabases();
let url: string;

beforeAll(async () => {
  ({ url } = await databases.open());
});
afterAll(async () => {
  await databases.dropAll();
});

const startsAndStops = async (environment: string) => {
  const api = await startApiProcess({ DATABASE_URL: url, APP_ENV: environment });
  const ready = await fetch(`${api.baseUrl}/readyz`);
  api.child.kill('SIGTERM');
  await api.exited;
  return ready.status;
};

describe('APP_ENV against the environment recorded in the database', () => {
  it('recorded by the first start, refused to another, changed by the explicit command', {
    timeout: 120_000,
  }, async () => {
    expect(await startsAndStops('production')).toBe(200);

    const refused = await runApiProcess({ DATABASE_URL: url, APP_ENV: 'staging' });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/APP_ENV is staging, but this database belongs to production/);
    expect(lines[0]).toMatch(/pnpm db:environment --set staging/);
    expect(refused.stdout).not.toMatch(/API listening/);

    const shown = await runCliProcess(['environment'], { DATABASE_URL: url });
    expect([shown.code, shown.stdout.trim()]).toEqual([0, 'production']);
    const bad = await runCliProcess(['environment', '--set', 'prod'], { DATABASE_URL: url });
    expect(bad.code).toBe(2);
    const changed = await runCliProcess(['environment', '--set', 'staging'], {
      DATABASE_URL: url,
    });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toMatch(/belonged to production; it now belongs to staging/);

    expect(await startsAndStops('staging')).toBe(200);
    expect((await runApiProcess({ DATABASE_URL: url, APP_ENV: 'production' })).code).toBe(1);
  });
});
