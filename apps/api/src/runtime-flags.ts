/**
 * The Node.js flags the API runs with in production: `pnpm start` (apps/api/package.json and
 * scripts/run-stack.mjs), the Docker image's CMD and `pnpm bench` (which reads them from the
 * package's start script) all start it with these (runtime-flags.test.ts checks that they agree).
 *
 * `--max-semi-space-size=16`: V8's young generation grows to 16 MB semi-spaces at most instead of
 * Node 24's default (32 MB): about the peak memory of 8 MB with less time collecting garbage. The
 * measurements behind the choice are in bench/README.md (`pnpm bench --profile`).
 *
 * `--liftoff-only`: WebAssembly runs on V8's baseline compiler only, never TurboFan. The API's one
 * large WebAssembly module is the embedded database (PGlite, when DATABASE_URL is unset), and
 * optimising it took hundreds of MB and whole seconds of a core at every start: measured with
 * `pnpm bench --only list --sizes 2000` on the embedded database, the API's RSS at rest 642-772 →
 * 299 MB, its peak under load 487-532 → 400 MB, and no fewer requests per second (108 → 124, the
 * same machine). It cannot be set once the process runs (V8 freezes its flags), hence here. On
 * PostgreSQL the only WebAssembly is Node's HTTP client parser (undici's llhttp, webhooks).
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=16',
  '--liftoff-only',
];
