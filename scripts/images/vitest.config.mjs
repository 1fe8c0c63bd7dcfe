import { defineConfig } from 'vitest/config';

// `pnpm test:images` (scripts/images/prepare.sh first, then this): both images built and run with
// podman. Not part of `pnpm test:stack`: it needs root, podman and about ten minutes.
export default defineConfig({
  test: {
    include: ['scripts/images/**/*.test.mjs'],
    testTimeout: 300_000,
    hookTimeout: 1_800_000,
  },
});
