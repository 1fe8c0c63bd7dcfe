/**
 * The Node.js flags the API runs with in production: `pnpm start` (apps/api/package.json and
 * scripts/run-stack.mjs), the Docker image's CMD and `pnpm bench` all start it with these
 * (runtime-flags.test.ts checks that they agree).
 *
 * `--max-semi-space-size=8`: V8's young generation grows to 8 MB semi-spaces at most instead of
 * its default (16 MB on 64-bit, 32 MB on Node 22+'s larger heaps). Short-lived request garbage is
 * still collected by scavenges, which stay cheap at this size; the peak RSS under load falls by
 * some 70 MB (289 → 206-224 MB measured, bench/README.md) at unchanged throughput.
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
