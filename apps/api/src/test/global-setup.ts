import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** apps/api */
const APP_ROOT = join(__dirname, '..', '..');
const ENTRY = join(APP_ROOT, 'dist', 'main.js');

/** Newest modification time of the sources `tsc -p tsconfig.build.json` compiles. */
const newestSource = (directory: string): number =>
  readdirSync(directory, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'test' && directory.endsWith('src')
        ? newest
        : Math.max(newest, newestSource(path));
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
      ? Math.max(newest, statSync(path).mtimeMs)
      : newest;
  }, 0);

/**
 * Some tests run the built API (dist/main.js) as a child process, exactly as `pnpm start` and
 * the container do. Builds the packages it imports (@pets/db, @pets/contract: turbo, cached, so a
 * change in packages/db is picked up by `vitest run` alone), then compiles the API when it is
 * missing or older than its sources (~7 s).
 */
export default function setup(): void {
  const turbo = [
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@pets/api^...',
    '--output-logs=errors-only',
  ];
  execFileSync('pnpm', turbo, {
    cwd: APP_ROOT,
    stdio: ['ignore', 2, 2],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  const sources = newestSource(join(APP_ROOT, 'src'));
  if (existsSync(ENTRY) && statSync(ENTRY).mtimeMs >= sources) {
    return;
  }
  const tsc = createRequire(__filename).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: APP_ROOT,
    stdio: 'inherit',
  });
}
