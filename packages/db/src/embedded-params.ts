import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL settings for the embedded database (product default; PGlite's own defaults are kept
 * and these follow them). PGlite runs in the API's process and its WebAssembly memory never
 * shrinks, so every buffer PostgreSQL allocates at start stays resident:
 * - shared_buffers 16MB instead of PGlite's 128MB (wal_buffers follows it, 1/32): one backend
 *   serving a demo-sized database. Measured on a reopened database: WASM memory 199 → 138 MB,
 *   RSS of a bare PGlite 333 → 254 MB; the API's figures are in docs/decisions.md.
 * The module's own minimum memory is 128MB (initialMemory below that fails to link).
 */
export const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
