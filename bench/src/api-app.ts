import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The API as production runs it, read from @pets/api's package.json (the app is used, not
 * imported): `main` is the built server, and `scripts.start` (`node <flags> dist/main.js`, which
 * apps/api's runtime-flags.test.ts holds to production's flags) gives the Node flags.
 */
const PACKAGE_JSON = require.resolve('@pets/api/package.json');
const { main, scripts } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as {
  main: string;
  scripts: { start: string };
};
const [command, ...words] = scripts.start.trim().split(/\s+/);
if (command !== 'node' || words.pop() !== main) {
  throw new Error(`@pets/api's start script is not \`node <flags> ${main}\`: ${scripts.start}`);
}

/** apps/api/dist/main.js: what `pnpm start` runs in production. */
export const API_ENTRY = join(dirname(PACKAGE_JSON), main);

/** The Node flags of production (`--max-semi-space-size=16`). */
export const API_NODE_FLAGS: readonly string[] = words;

/** The API's compiled command line (`pnpm keys`, `pnpm db`), its one exported entry. */
export const API_CLI = require.resolve('@pets/api/cli');
