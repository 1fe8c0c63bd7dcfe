import { join, resolve } from 'node:path';

/** apps/web */
export const WEB_DIR = resolve(__dirname, '..', '..');
export const REPO_ROOT = resolve(WEB_DIR, '..', '..');
/** Git-ignored output of the browser tests: screenshots and the logs of the processes. */
export const ARTIFACTS_DIR = join(WEB_DIR, 'artifacts');
export const SCREENSHOTS_DIR = join(ARTIFACTS_DIR, 'screenshots');
export const LOGS_DIR = join(ARTIFACTS_DIR, 'logs');
export const API_MAIN = join(REPO_ROOT, 'apps', 'api', 'dist', 'main.js');
/** The API's built CLI: what `pnpm keys`, `pnpm accounts` and `pnpm db:seed` run, once built. */
export const CLI_MAIN = join(REPO_ROOT, 'apps', 'api', 'dist', 'cli', 'index.js');
/** The site's edge server in front of Next.js (src/edge/server.ts, built by the web build). */
export const EDGE_SERVER = join(WEB_DIR, 'dist', 'edge', 'server.js');
export const NEXT_BUILD_ID = join(WEB_DIR, '.next', 'BUILD_ID');
