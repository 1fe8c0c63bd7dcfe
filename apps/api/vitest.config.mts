import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Nest's dependency injection needs decorator metadata, which esbuild does not emit.
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['src/**/*.test.ts'],
    // Builds dist/ when it is stale: some tests run the built API as a child process.
    globalSetup: ['src/test/global-setup.ts'],
    passWithNoTests: true,
    // Each file has its own database, Redis key prefix, ports and child processes, so files run
    // side by side. Most of a file's time is waiting (for a child API to start, a window to pass,
    // a server to answer), so more files than cores: vitest's default (cores - 1) ran one file at a
    // time on a 2-core machine. VITEST_MAX_WORKERS=n (vitest reads it) or --maxWorkers=n overrides.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
