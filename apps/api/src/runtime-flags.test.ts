import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config';
import { PRODUCTION_NODE_FLAGS } from './runtime-flags';

// Production starts the API in three places; each must give Node the same flags. (`pnpm bench`
// reads them from the `pnpm start` script.)
const read = (...path: string[]) => readFileSync(join(REPO_ROOT, ...path), 'utf8');

describe('the production Node flags', () => {
  it('are given by `pnpm start` of @pets/api', () => {
    const { scripts } = JSON.parse(read('apps', 'api', 'package.json')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(`node ${PRODUCTION_NODE_FLAGS.join(' ')} dist/main.js`);
  });

  it('are given by the Docker image', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('apps', 'api', 'Dockerfile'))?.[1];
    expect(JSON.parse(cmd ?? '[]')).toEqual([
      'node',
      ...PRODUCTION_NODE_FLAGS,
      'apps/api/dist/main.js',
    ]);
  });

  it('are given by the root `pnpm start` (scripts/run-stack.mjs)', () => {
    expect(read('scripts', 'run-stack.mjs')).toContain(
      "start('api', process.execPath, [...PRODUCTION_NODE_FLAGS, apiMain]",
    );
  });
});
