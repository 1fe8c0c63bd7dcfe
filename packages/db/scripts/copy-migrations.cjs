// Part of `build`: copies the repository's prisma/migrations into dist/migrations, so that the
// package carries them wherever it is deployed (`pnpm deploy` ships dist/, not the repository).
// The migration runner reads the repository's folder when there is one (src/migrate.ts).
const { cpSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const target = join(__dirname, '..', 'dist', 'migrations');
rmSync(target, { recursive: true, force: true });
cpSync(join(__dirname, '..', '..', '..', 'prisma', 'migrations'), target, { recursive: true });
