#!/usr/bin/env node
// `pnpm keys ...`, `pnpm db:migrate`, `pnpm db:seed`: builds the packages the CLI imports when they
// changed (./build.mjs: nothing is written when they did not, so a running `pnpm dev` is left
// alone), then runs the CLI from source (apps/api/src/cli/index.ts, compiled in memory by tsx).
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './build.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const isBuilt = await ensureBuilt({
  root: ROOT,
  filters: ['--filter=@pets/api^...'],
  // Progress on stderr: stdout is the command's answer (`pnpm --silent keys create` -> the key).
  log: (message) => process.stderr.write(`[cli] ${message}\n`),
  quietWhenUpToDate: true,
});
if (!isBuilt) {
  process.exit(1);
}
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    join(ROOT, 'apps', 'api', 'src', 'cli', 'index.ts'),
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, stdio: 'inherit' },
);
// Ctrl-C reaches the CLI through the terminal's process group; a SIGTERM sent to us alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
