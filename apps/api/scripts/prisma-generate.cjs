// Generates the Prisma client from ../../prisma/schema.prisma into src/generated/prisma.
// Prisma's schema engine cannot be downloaded on our machines and `generate` does not use it,
// but the CLI insists that the binary exists: point it at any existing file.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
execFileSync('prisma', ['generate', '--config', join(root, 'prisma.config.ts')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
