import { defineConfig } from 'vitest/config';

// Tests of the root scripts (`pnpm test:stack`, part of `pnpm test`): pnpm start and pnpm dev end
// to end, and the variables scripts/run-stack.mjs checks.
export default defineConfig({
  test: {
    include: ['scripts/**/*.test.mjs'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
