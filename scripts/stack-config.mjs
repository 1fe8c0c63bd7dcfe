// The variables scripts/run-stack.mjs itself reads, checked before anything is built or started:
// a bad value stops it with one line naming the variable, like the API's and the site's own checks
// (apps/api/src/config.ts, apps/web/src/config.ts), which still check the rest of their variables.
import { isAbsolute, join } from 'node:path';

export class StackConfigError extends Error {}

/**
 * What `pnpm start`/`pnpm dev` read themselves, as `pnpm docs:config` lists them in
 * docs/operations.md (the API and the site read the rest of their variables themselves).
 */
export const STACK_VARIABLES = [
  { name: 'PORT', default: '4000', description: 'port of the API (1 to 65535)' },
  { name: 'WEB_PORT', default: '3000', description: 'port of the site; must differ from `PORT`' },
  {
    name: 'DATA_DIR',
    default: '.data',
    description:
      "the embedded database, the site's key and its local session secret, relative to the repository",
  },
];

/** A port the stack can tell the site and the browser about: 1 to 65535 (0 would be any port). */
const port = (env, name, fallback) => {
  const text = env[name] === undefined || env[name] === '' ? String(fallback) : env[name].trim();
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 65_535) {
    throw new StackConfigError(
      `Invalid configuration: ${name} must be a whole number from 1 to 65535 (not "${env[name]}")`,
    );
  }
  return value;
};

/**
 * The addresses `pnpm start` and `pnpm dev` hand the API and the site, one rule for both: the site
 * calls the API at 127.0.0.1 (server to server, whatever `localhost` resolves to first); the links
 * in emails lead to the site at localhost, as the addresses printed; and the photos are where the
 * API says (MEDIA_BASE_URL, by default its own /media at localhost), the site being given the same
 * address so that its pages' CSP lets browsers load them.
 */
export const stackAddresses = ({ apiPort, webPort }, env) => ({
  siteApiUrl: env.API_URL || `http://127.0.0.1:${apiPort}/v1`,
  siteUrl: env.SITE_URL || `http://localhost:${webPort}`,
  // With S3_BUCKET the API needs MEDIA_BASE_URL given, and says so: no default to hide it.
  mediaBaseUrl: env.MEDIA_BASE_URL || (env.S3_BUCKET ? '' : `http://localhost:${apiPort}/media`),
});

/**
 * PORT (the API, default 4000), WEB_PORT (the site, default 3000) and DATA_DIR (default .data,
 * relative to the repository); throws a StackConfigError with one line.
 */
export const parseStackConfig = (env, root) => {
  const apiPort = port(env, 'PORT', 4000);
  const webPort = port(env, 'WEB_PORT', 3000);
  if (apiPort === webPort) {
    throw new StackConfigError(
      `Invalid configuration: WEB_PORT must differ from PORT (both are ${apiPort})`,
    );
  }
  const dataDir = env.DATA_DIR === undefined || env.DATA_DIR === '' ? '.data' : env.DATA_DIR;
  if (dataDir.trim() === '' || dataDir.includes('\0')) {
    throw new StackConfigError('Invalid configuration: DATA_DIR must be a folder path');
  }
  return { apiPort, webPort, dataDir: isAbsolute(dataDir) ? dataDir : join(root, dataDir) };
};
