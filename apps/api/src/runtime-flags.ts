/**
 * The Node.js flags the API runs with in production: `pnpm start` (apps/api/package.json and
 * scripts/run-stack.mjs), the Docker image's CMD and `pnpm bench` all start it with these
 * (runtime-flags.test.ts checks that they agree).
 *
 * `--max-semi-space-size=16`: V8's young generation grows to 16 MB semi-spaces at most instead of
 * its default on Node 24 (32 MB). Measured on Node 24 (`pnpm bench --profile --only list,status
 * --sizes 10000`, same machine, one series; bench/README.md): peak RSS under load 388 / 395-401 /
 * 511-515 MB with 8 / 16 / the default, and the garbage collector's share of the list's busy time
 * 17% / 12.5% / 9% (status filter 21% / 17% / 13%). 8 MB, chosen on Node 22, made scavenges so
 * frequent on Node 24 that more request garbage survived into the old generation; 16 keeps the
 * memory of 8 with less collection.
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
