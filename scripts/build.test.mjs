import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProgress, plannedTasks } from './build.mjs';

// What `pnpm start` says while it builds: turbo runs independent steps at once, and the lines name
// the steps really running (the API and the site side by side), not the last one turbo mentioned.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const START_FILTERS = ['--filter=@pets/api...', '--filter=@pets/web...'];

describe("the build's progress", () => {
  it('knows from turbo which step waits for which: the site does not wait for the data layer', async () => {
    const tasks = await plannedTasks(ROOT, START_FILTERS);
    const after = Object.fromEntries((tasks ?? []).map((task) => [task.id, task.after]));
    expect(Object.keys(after).sort()).toEqual([
      '@pets/api:build',
      '@pets/contract:build',
      '@pets/db:build',
      '@pets/db:generate',
      '@pets/store:build',
      '@pets/testing:build',
      '@pets/web:build',
    ]);
    expect(after['@pets/api:build']).toContain('@pets/store:build');
    expect(after['@pets/web:build']).not.toContain('@pets/store:build');
    expect(after['@pets/db:build']).toEqual(['@pets/db:generate']);
  });

  it('names every step running, as turbo ends each (its output is one group, printed at its end)', () => {
    const tasks = [
      ['@pets/db:generate', []],
      ['@pets/contract:build', []],
      ['@pets/testing:build', []],
      ['@pets/db:build', ['@pets/db:generate']],
      ['@pets/store:build', ['@pets/contract:build', '@pets/db:build']],
      [
        '@pets/api:build',
        ['@pets/contract:build', '@pets/db:build', '@pets/store:build', '@pets/testing:build'],
      ],
      ['@pets/web:build', ['@pets/contract:build', '@pets/db:build', '@pets/testing:build']],
    ].map(([id, after]) => ({ id, after, isCached: false, hasOutputs: false }));
    let now = 0;
    const progress = buildProgress(tasks, () => now);
    expect(progress.started()).toBe(
      'build: building @pets/db:generate, @pets/contract:build and @pets/testing:build.',
    );
    const end = (step, at, how = 'cache miss, executing 0ef9c2a1b3d4e5f6') => {
      now = at;
      return progress.finished(`${step}: ${how}`);
    };
    expect(end('@pets/testing:build', 15)).toBe(
      'build 1/7: @pets/testing:build built (15 s so far); building @pets/db:generate and @pets/contract:build.',
    );
    // The output lines of a step's group, and the group's header again, change nothing.
    expect(progress.finished('@pets/testing:build: > tsc -p tsconfig.build.json')).toBeNull();
    expect(end('@pets/testing:build', 15)).toBeNull();
    end('@pets/contract:build', 16, 'cache hit, replaying logs 0ef9c2a1b3d4e5f6');
    expect(end('@pets/db:generate', 20)).toBe(
      'build 3/7: @pets/db:generate built (20 s so far); building @pets/db:build.',
    );
    expect(end('@pets/db:build', 30)).toBe(
      'build 4/7: @pets/db:build built (30 s so far); building @pets/store:build and @pets/web:build.',
    );
    now = 45;
    expect(progress.heartbeat()).toBe(
      'build: still building @pets/store:build and @pets/web:build (45 s so far).',
    );
    expect(end('@pets/store:build', 54)).toBe(
      'build 5/7: @pets/store:build built (54 s so far); building @pets/api:build and @pets/web:build.',
    );
    now = 120;
    expect(progress.heartbeat()).toBe(
      'build: still building @pets/api:build and @pets/web:build (120 s so far).',
    );
    expect(end('@pets/api:build', 150)).toBe(
      'build 6/7: @pets/api:build built (150 s so far); building @pets/web:build.',
    );
    now = 165;
    expect(progress.heartbeat()).toBe('build: still building @pets/web:build (165 s so far).');
    expect(end('@pets/web:build', 190)).toBe('build 7/7: @pets/web:build built (190 s so far).');
  });

  it('still says how long it has been when turbo could not say what it plans', () => {
    const progress = buildProgress(null, () => 30);
    expect(progress.started()).toBeNull();
    expect(progress.heartbeat()).toBe('build: still building (30 s so far).');
    expect(progress.finished('@pets/api:build: cache miss, executing 0ef9')).toBe(
      'build 1/?: @pets/api:build built (30 s so far).',
    );
  });
});
