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
    // A worker runs its files one after another in one module graph (Nest, Prisma, the API's
    // modules imported once per worker, not once per file): the suite spent 293 s of its 440 importing
    // them again for each file. No file changes process.env, mocks a module or fakes timers; each
    // starts its own app, database and Redis prefix. 4m41 and 6.2 CPU-minutes instead of 7m20 and
    // 11 (docs/development.md, "How long the tests take").
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
