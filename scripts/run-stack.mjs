#!/usr/bin/env node
// `pnpm start` / `pnpm dev` at the repo root: the API and the adoption site together.
//
//   node scripts/run-stack.mjs start   built API (node apps/api/dist/main.js) + built site (next start)
//   node scripts/run-stack.mjs dev     contract, API and site in watch mode, the site type-checked live
//
// The API runs on PORT (default 4000) on the embedded database under DATA_DIR unless DATABASE_URL
// is set, exactly as `node apps/api/dist/main.js` alone would. The site runs on WEB_PORT (default
// 3000) and needs an API key of its own: unless WEB_API_KEY is given, the first start creates one
// with the key CLI (`pnpm keys create --plan business`), keeps it in DATA_DIR (git-ignored, mode
// 600) and reuses it afterwards; if the API no longer accepts it (a new database), a new one is made.
// When it makes that key for a new database it also makes a demo staff key ("demo staff") and
// prints it once, so the back office (/staff) can be tried at once; otherwise it prints how to
// make one. The site's SESSION_SECRET, unless given, is generated once and kept in DATA_DIR too:
// a local convenience, not for production (where SESSION_SECRET must be set).
//
// Ctrl-C (or SIGTERM) stops everything; if one process dies, the others are stopped too.
// The processes are supervised by @pets/testing (built by `pnpm start`/`pnpm dev` before this runs):
// each in its own process group, stopped with SIGTERM then SIGKILL, none left behind if this exits.
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2] ?? 'start';
if (mode !== 'start' && mode !== 'dev') {
  console.error(`Usage: node scripts/run-stack.mjs [start|dev] (not "${mode}")`);
  process.exit(2);
}
const TESTING = join(ROOT, 'packages', 'testing', 'dist', 'index.js');
if (!existsSync(TESTING)) {
  console.error(
    '[stack] packages/testing is not built: run `pnpm build` first (`pnpm start` does).',
  );
  process.exit(1);
}
const { runProcess, startProcess, waitForHttp } = await import(pathToFileURL(TESTING).href);

const env = process.env;
const apiPort = Number(env.PORT || 4000);
const webPort = Number(env.WEB_PORT || 3000);
const dataDir = isAbsolute(env.DATA_DIR || '.data')
  ? env.DATA_DIR
  : join(ROOT, env.DATA_DIR || '.data');
const apiUrl = `http://127.0.0.1:${apiPort}/v1`;
const API_READY_TIMEOUT_MS = 180_000;

const children = new Set();
let stopping = false;

const log = (message) => process.stdout.write(`[stack] ${message}\n`);

/** Starts a command in its own process group, its output prefixed with its name. */
const start = (name, command, args, options = {}) => {
  const child = startProcess({
    name,
    command,
    args,
    cwd: options.cwd ?? ROOT,
    env: { ...env, ...options.env },
    // It runs for hours: keep only the tail, the terminal has the rest.
    keepOutput: false,
    onLine: (line, stream) => {
      (stream === 'stderr' ? process.stderr : process.stdout).write(`[${name}] ${line}\n`);
      options.onLine?.(line);
    },
  });
  children.add(child);
  void child.exited.then(({ description }) => {
    children.delete(child);
    if (!stopping) {
      log(`${name} stopped unexpectedly (${description}); stopping the rest.`);
      void stopAll(1);
    }
  });
  return child;
};

/** SIGTERM to every process group, SIGKILL to those still there after 8 s. */
const stopAll = async (exitCode) => {
  if (stopping) {
    return;
  }
  stopping = true;
  await Promise.all([...children].map((child) => child.stop(8_000)));
  process.exit(exitCode);
};

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/** Any HTTP answer below 500 (a 401 without a key) means the API is serving. */
const waitForApi = async () => {
  const isServing = await waitForHttp(`${apiUrl}/categories`, {
    isReady: (status) => status < 500,
    timeoutMs: API_READY_TIMEOUT_MS,
    intervalMs: 500,
  });
  if (!isServing && !stopping) {
    log(`the API did not answer at ${apiUrl} within ${API_READY_TIMEOUT_MS / 1000} s.`);
    await stopAll(1);
  }
};

/** 'valid', 'invalid' (401: unknown or revoked here) or 'unknown' (the check itself failed). */
const checkKey = async (key) => {
  try {
    const response = await fetch(`${apiUrl}/categories`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    return response.status === 401 ? 'invalid' : 'valid';
  } catch {
    return 'unknown';
  }
};

/** Runs `pnpm keys create ...` and returns its last line of output: the new key. */
const createKey = async (extraArgs = ['--plan', 'business', '--name', 'web-site']) => {
  const { code, description, stdout, stderr } = await runProcess({
    name: 'pnpm keys create',
    command: 'pnpm',
    args: ['--silent', 'keys', 'create', ...extraArgs],
    cwd: ROOT,
    env,
  });
  const key = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (code !== 0 || !key) {
    throw new Error(`\`pnpm keys create\` failed (${description}): ${stderr.trim()}`);
  }
  return key;
};

/** The site's key: WEB_API_KEY if given, else the one kept in DATA_DIR, else a new one. */
const siteKey = async () => {
  if (env.WEB_API_KEY) {
    log('using WEB_API_KEY from the environment.');
    return env.WEB_API_KEY;
  }
  // One key file per database: the embedded one, or each DATABASE_URL.
  const suffix = env.DATABASE_URL
    ? `-${createHash('sha256').update(env.DATABASE_URL).digest('hex').slice(0, 12)}`
    : '';
  const keyFile = join(dataDir, `web-api-key${suffix}`);
  if (existsSync(keyFile)) {
    const kept = readFileSync(keyFile, 'utf8').trim();
    const state = await checkKey(kept);
    if (state !== 'invalid') {
      log(`the site uses its key kept in ${keyFile}.`);
      return kept;
    }
    log('the kept site key is not accepted by this database any more; creating a new one.');
  }
  const key = await createKey();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  log(`created the site's API key (plan business) and kept it in ${keyFile}.`);
  isNewDatabase = true;
  return key;
};

/** Whether siteKey() had to make a key: a new database, which gets a demo staff key too. */
let isNewDatabase = false;

const STAFF_HOW_TO =
  'make a staff key with `pnpm keys create --plan business --role staff --name "Your name"` ' +
  'and sign in with it';

/**
 * On a new database: a demo staff key, printed once (like the API's demo key) and kept nowhere.
 * Otherwise: how to make one.
 */
const announceStaffKey = async () => {
  const staffUrl = `http://localhost:${webPort}/staff`;
  if (!isNewDatabase) {
    log(`back office: ${staffUrl} (${STAFF_HOW_TO}).`);
    return;
  }
  try {
    const staffKey = await createKey([
      '--plan',
      'business',
      '--role',
      'staff',
      '--name',
      'demo staff',
    ]);
    log(
      `back office: ${staffUrl}. A demo staff key was made for this new database; it is shown only this once:`,
    );
    process.stdout.write(`\n    ${staffKey}\n\n`);
    log('revoke it with `pnpm keys revoke <its start>` once you have your own.');
  } catch (error) {
    log(`could not make a demo staff key (${error.message}); ${STAFF_HOW_TO}.`);
  }
};

/**
 * The site's SESSION_SECRET: from the environment, else generated once and kept in DATA_DIR
 * (mode 600), so staff sessions survive a restart. For local use only: production sets its own.
 */
const sessionSecret = () => {
  if (env.SESSION_SECRET) {
    return env.SESSION_SECRET;
  }
  const secretFile = join(dataDir, 'web-session-secret');
  if (existsSync(secretFile)) {
    return readFileSync(secretFile, 'utf8').trim();
  }
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(secretFile, `${secret}\n`, { mode: 0o600 });
  chmodSync(secretFile, 0o600);
  log(`generated a local SESSION_SECRET for the site in ${secretFile} (not for production).`);
  return secret;
};

/**
 * The API's own `dev` script if it has one; otherwise its compiler in watch mode and, once the
 * first compilation is done, `node --watch` restarting the API when its output or the contract's
 * changes.
 */
const startApiInWatchMode = async () => {
  const apiPackage = JSON.parse(readFileSync(join(ROOT, 'apps', 'api', 'package.json'), 'utf8'));
  if (apiPackage.scripts?.dev) {
    start('api', 'pnpm', ['--filter', '@pets/api', 'run', 'dev']);
    return;
  }
  await new Promise((compiled) => {
    start(
      'api-tsc',
      'pnpm',
      [
        '--filter',
        '@pets/api',
        'exec',
        'tsc',
        '-p',
        'tsconfig.build.json',
        '--watch',
        '--preserveWatchOutput',
      ],
      { onLine: (line) => /Watching for file changes/.test(line) && compiled() },
    );
  });
  start('api', process.execPath, [
    '--watch-path=apps/api/dist',
    '--watch-path=packages/contract/dist',
    'apps/api/dist/main.js',
  ]);
};

const main = async () => {
  if (mode === 'start') {
    const apiMain = join(ROOT, 'apps', 'api', 'dist', 'main.js');
    if (!existsSync(apiMain) || !existsSync(join(ROOT, 'apps', 'web', '.next', 'BUILD_ID'))) {
      log('the API or the site is not built: run `pnpm build` first (`pnpm start` does).');
      process.exit(1);
    }
    // Production's Node flags (apps/api/src/runtime-flags.ts), as in the Docker image.
    const { PRODUCTION_NODE_FLAGS } = createRequire(import.meta.url)(
      join(ROOT, 'apps', 'api', 'dist', 'runtime-flags.js'),
    );
    start('api', process.execPath, [...PRODUCTION_NODE_FLAGS, apiMain]);
  } else {
    // The contract compiles on change; both apps see a changed type at once (the API's compiler
    // and the site's type-checker below).
    start('contract', 'pnpm', ['--filter', '@pets/contract', 'run', 'dev']);
    await startApiInWatchMode();
  }
  await waitForApi();
  let key;
  try {
    key = await siteKey();
  } catch (error) {
    log(`could not provision the site's API key: ${error.message}`);
    await stopAll(1);
    return;
  }
  const webEnv = {
    API_URL: env.API_URL || apiUrl,
    WEB_API_KEY: key,
    SESSION_SECRET: sessionSecret(),
    WEB_PORT: String(webPort),
    NEXT_TELEMETRY_DISABLED: '1',
  };
  const webDir = join(ROOT, 'apps', 'web');
  const next = join(webDir, 'node_modules', 'next', 'dist', 'bin', 'next');
  if (mode === 'start') {
    start('web', process.execPath, [next, 'start', '--port', String(webPort)], {
      cwd: webDir,
      env: { ...webEnv, NODE_ENV: 'production' },
    });
  } else {
    start('web', process.execPath, [next, 'dev', '--port', String(webPort)], {
      cwd: webDir,
      env: webEnv,
    });
    start('web-types', 'pnpm', ['exec', 'tsc', '--noEmit', '--watch', '--preserveWatchOutput'], {
      cwd: webDir,
    });
  }
  await announceStaffKey();
  log(
    `site: http://localhost:${webPort}   API: http://localhost:${apiPort}/v1   (Ctrl-C stops both)`,
  );
};

void main();
