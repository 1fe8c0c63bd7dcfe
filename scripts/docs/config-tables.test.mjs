import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configTables, renderedDocs, renderTable, withTable } from './config-tables.mjs';
import { ROOT } from './links.mjs';

describe('the configuration tables of the docs', () => {
  it('are what pnpm docs:config writes from the schemas (run it after changing a variable)', async () => {
    for (const [file, text] of Object.entries(await renderedDocs())) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).toBe(text);
    }
  });

  it('list every variable of the API, the site and the store, each with its meaning', async () => {
    const tables = Object.fromEntries(
      (await configTables()).map(({ marker, rows }) => [marker, rows]),
    );
    const names = (marker) => tables[marker].map((row) => row.name);
    expect(names('api')).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'S3_BUCKET']));
    expect(names('web')).toEqual(expect.arrayContaining(['API_URL', 'SESSION_SECRET']));
    expect(names('store')).toEqual([
      'STORE_NAME',
      'STORE_ADDRESS',
      'STORE_OPENING_HOURS',
      'STORE_REPLY_DAYS',
      'STORE_PHONE',
      'STORE_EMAIL',
      'STORE_TIME_ZONE',
      'STORE_ADOPTION_FEE',
    ]);
    expect(names('stack')).toEqual(['PORT', 'WEB_PORT', 'DATA_DIR']);
    for (const row of Object.values(tables).flat()) {
      expect(row.description.length, row.name).toBeGreaterThan(10);
    }
  });

  it('replace only what is between their markers', () => {
    const table = renderTable([{ name: 'A', default: '`1`', description: 'the a' }]);
    const before = 'intro\n<!-- config:x:start -->\nold\n<!-- config:x:end -->\nafter\n';
    expect(withTable(before, 'x', table)).toBe(
      'intro\n<!-- config:x:start -->\n| variable | default | meaning |\n|---|---|---|\n| `A` | `1` | the a |\n<!-- config:x:end -->\nafter\n',
    );
    expect(() => withTable('no markers', 'x', table)).toThrow(/markers/);
  });
});
