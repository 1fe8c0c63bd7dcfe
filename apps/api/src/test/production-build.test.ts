import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** apps/api */
const APP_ROOT = join(__dirname, '..', '..');

/**
 * Every file `pnpm build` compiles, as tsc itself lists it (not dist/, which may hold files of an
 * older build): a test file or test support that a production file imports is compiled although
 * tsconfig.build.json excludes it, and a test-only package would be missing in the image.
 */
const compiledFiles = (): string[] => {
  const tsc = createRequire(__filename).resolve('typescript/bin/tsc');
  return execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'], {
    cwd: APP_ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean)
    .map((file) => relative(APP_ROOT, file).split(sep).join('/'));
};

describe('the production build', () => {
  const files = compiledFiles();
  const sources = files.filter((file) => file.startsWith('src/'));

  it('compiles the API', () => {
    expect(sources).toContain('src/main.ts');
  });

  it('holds no test, no test support and nothing of src/test', () => {
    expect(
      sources.filter((file) => /\.test(-support)?\.ts$|\.test-d\.ts$|^src\/test\//.test(file)),
    ).toEqual([]);
  });

  it('reaches no test-only package', () => {
    expect(
      files.filter((file) =>
        /node_modules\/(vitest|@vitest|playwright|playwright-core|@playwright|@stoplight|@pets\/testing)\/|packages\/testing\//.test(
          file,
        ),
      ),
    ).toEqual([]);
  });
});
