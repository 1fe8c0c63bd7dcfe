// Generates, from ../../prisma/schema.prisma, the Prisma client into src/generated/prisma and the
// Kysely table types into src/generated/kysely (the schema's two generator blocks).
// Prisma's schema engine cannot be downloaded on our machines and `generate` does not use it,
// but the CLI insists that the binary exists: point it at any existing file.
const { execFileSync } = require('node:child_process');
const { delimiter, join } = require('node:path');

const packageRoot = join(__dirname, '..');
const root = join(packageRoot, '..', '..');
execFileSync('prisma', ['generate', '--config', join(root, 'prisma.config.ts')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    // The `prisma` CLI and the `prisma-kysely` generator are this package's dev dependencies.
    PATH: [join(packageRoot, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
