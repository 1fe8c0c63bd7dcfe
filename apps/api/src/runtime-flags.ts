/**
 * The Node.js flags the API runs with in production: `pnpm start` (apps/api/package.json and
 * scripts/run-stack.mjs), the Docker image's CMD and `pnpm bench` (which reads them from the
 * package's start script) all start it with these (runtime-flags.test.ts checks that they agree).
 *
 * `--max-semi-space-size=16`: V8's young generation grows to 16 MB semi-spaces at most instead of
 * Node 24's default (32 MB): about the peak memory of 8 MB with less time collecting garbage. The
 * measurements behind the choice are in bench/README.md (`pnpm bench --profile`).
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
