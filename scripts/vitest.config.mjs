import { configDefaults, defineConfig } from 'vitest/config';

// Tests of the root scripts (`pnpm test:stack`, part of `pnpm test`): pnpm start and pnpm dev end
// to end, the variables scripts/run-stack.mjs checks, and the docs (links, configuration tables).
export default defineConfig({
  test: {
    include: ['scripts/**/*.test.mjs'],
    // The images' test is `pnpm test:images` (scripts/images/vitest.config.mjs).
    exclude: [...configDefaults.exclude, 'scripts/images/**'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
