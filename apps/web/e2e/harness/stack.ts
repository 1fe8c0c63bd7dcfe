import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@pets/testing';
import { createTestDatabase, type TTestDatabase } from './database';
import {
  API_MAIN,
  CLI_MAIN,
  EDGE_SERVER,
  LOGS_DIR,
  NEXT_BUILD_ID,
  REPO_ROOT,
  WEB_DIR,
} from './paths';
import { freePort, startProcess, stopProcess, type TProcess, waitForHttp } from './processes';
import { startSmtpInbox, type TSmtpInbox } from './smtp';
import { inheritedEnv, testEnv } from './test-env';

/** What the tests get to know about the running stack (passed to them as JSON). */
export type TStack = {
  apiUrl: string;
  /** The site with a key of a high plan. */
  siteUrl: string;
  /** The same build with a key of tiny limits: every page soon meets a 429. */
  limitedSiteUrl: string;
  /** The same build pointed at an address where no API listens. */
  offlineSiteUrl: string;
  /**
   * The same build with the default per-visitor limits and public cache (the main sites raise the
   * limits, since the browser tests all come from one address, and cache nothing, since they look
   * at once at what they changed through the API), trusting 127.0.0.9 alone as a proxy: the
   * attacks' target.
   */
  guardedSiteUrl: string;
  /**
   * The same build with the main site's key and limits, in front of a second API on the same
   * database that asks adopters to confirm their applications by email
   * (APPLICATION_CONFIRMATION=email). That API sends no mail itself (JOBS_WORKER=off): the main
   * API's worker does, so its links lead to the main site, which shows the same applications.
   */
  confirmingSiteUrl: string;
  /** The address the guarded site trusts as a proxy (its X-Forwarded-For is believed). */
  trustedProxyAddress: string;
  /** The API's output (one JSON access line per request), and the main, limited and guarded sites'. */
  apiLogFile: string;
  siteLogFile: string;
  limitedSiteLogFile: string;
  guardedSiteLogFile: string;
  /** The main site's key: the tests check it never reaches the browser. */
  webApiKey: string;
  limitedApiKey: string;
  /**
   * A staff key made with `pnpm keys create --role staff`: for scripts and the tests' own setup
   * through the API (fixtures.ts `staffApi`), never for the site, where people sign in.
   */
  staffApiKey: string;
  partnerApiKey: string;
  readOnlyApiKey: string;
  /** A staff key that has been revoked. */
  revokedStaffApiKey: string;
  /** People, made with `pnpm accounts create` (the password on its standard input). */
  adminAccount: TAccount;
  staffAccount: TAccount;
  /** Deactivated with `pnpm accounts deactivate`: it cannot sign in. */
  deactivatedAccount: TAccount;
  /** The site's SESSION_SECRET: tests forge a cookie only to show a forged one is refused. */
  sessionSecret: string;
  /**
   * Every email the API sent, as the test's SMTP server received it (harness/smtp.ts), in the dev
   * mailbox's format: the main site's MAIL_DIR too, so /staff/mail shows them.
   */
  mailDir: string;
  databaseName: string;
  /**
   * The stack's database, for a test's setup that no page can make quickly (a hundred keys of
   * one organisation, to meet its cap), never for checking what a page should show.
   */
  databaseUrl: string;
  /**
   * Whether the API enforces rate limits (its responses carry X-RateLimit-Limit, or it answers
   * 429). Until it does, nothing can provoke a 429 and the tests of that state are skipped, saying
   * why.
   */
  hasRateLimits: boolean;
};

/** A person who signs in at /staff/sign-in. */
export type TAccount = { email: string; password: string; name: string };

/** The stacks of a run, one per worker slot (harness/projects.ts), by parallel index. */
export type TStacks = TStack[];

export const STACK_ENV = 'PETS_E2E_STACKS';

const API_READY_TIMEOUT_MS = 90_000;
/** The sites' SESSION_SECRET in the tests (random per run). */
const E2E_SESSION_SECRET = randomBytes(32).toString('base64url');
const SITE_READY_TIMEOUT_MS = 30_000;

/** The CLI's command for each root script (`pnpm db:seed` runs `seed`). */
const CLI_COMMANDS: Record<string, string> = {
  'db:seed': 'seed',
  keys: 'keys',
  accounts: 'accounts',
};

/**
 * A root command of the API's CLI (`pnpm keys ...`, `pnpm db:seed`) on the test database, run as
 * the production image runs it: the built CLI, already built by the test run. `pnpm keys` itself
 * (building what changed, then the CLI from source) is a second of CPU more each, a dozen times
 * per stack; scripts/run-stack.test.mjs and the API's cli.test.ts run it that way. It fails with
 * its standard error unless it exits 0 within two minutes.
 */
const runCli = async (databaseUrl: string, args: string[], input?: string) => {
  const [script = '', ...rest] = args;
  const command = CLI_COMMANDS[script];
  if (!command) {
    throw new Error(`not a CLI script: ${script}`);
  }
  const exit = await runProcess({
    name: `pnpm ${args.join(' ')}`,
    command: process.execPath,
    args: [CLI_MAIN, command, ...rest],
    cwd: REPO_ROOT,
    env: { ...inheritedEnv(), DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    ...(input === undefined ? {} : { input }),
    timeoutMs: 120_000,
  });
  if (exit.code !== 0) {
    throw Object.assign(new Error(exit.description), { stderr: exit.stderr || exit.description });
  }
  return exit;
};

const cliFailure = (command: string, error: unknown): Error => {
  const detail =
    error && typeof error === 'object' && 'stderr' in error
      ? String((error as { stderr: unknown }).stderr).slice(-1_000)
      : error instanceof Error
        ? error.message
        : String(error);
  return new Error(`\`pnpm ${command}\` failed: ${detail}`);
};

/**
 * `pnpm keys create ...` against the test database; the key is the last line of its output.
 */
const createKey = async (databaseUrl: string, args: string[]): Promise<string> => {
  try {
    const { stdout } = await runCli(databaseUrl, ['keys', 'create', ...args]);
    const key = stdout.trim().split('\n').at(-1)?.trim() ?? '';
    if (!/^\S{20,}$/.test(key)) {
      throw new Error(`its last line is not a key: ${JSON.stringify(stdout.slice(-200))}`);
    }
    return key;
  } catch (error) {
    throw cliFailure(`keys create ${args.join(' ')}`, error);
  }
};

/**
 * `pnpm accounts create ...` against the test database, the password on its standard input (never
 * in argv), as an operator would.
 */
const createAccount = async (
  databaseUrl: string,
  role: 'admin' | 'staff',
  account: TAccount,
): Promise<TAccount> => {
  const args = [
    'accounts',
    'create',
    '--role',
    role,
    '--email',
    account.email,
    '--name',
    account.name,
    '--password-stdin',
  ];
  try {
    await runCli(databaseUrl, args, `${account.password}\n`);
  } catch (error) {
    throw cliFailure(`accounts create --email ${account.email}`, error);
  }
  return account;
};

/** A password of the run: random, so no test can depend on a constant. */
const newPassword = (): string => `pw-${randomBytes(12).toString('base64url')}`;

/**
 * The browser tests all come from 127.0.0.1: on the main sites, limits well above what a run
 * spends, so no test depends on another's count. The guarded site keeps the defaults.
 */
const RAISED_LIMITS =
  'page=100000/60,form=100000/60,sign-in=1000/600,sign-up=1000/3600,reset=1000/3600,lookup=1000/600,apply=1000/3600,apply-day=1000/86400,apply-email=1000/86400,saved-search=1000/3600,passkey=1000/600';
/**
 * Every site of the run keeps the store's time in New York: neither UTC nor the default
 * (Europe/London, which is UTC all winter), so a date shown on the server's clock, or the default
 * store's, fails the test that looks (store.spec.ts).
 */
export const E2E_STORE_TIME_ZONE = 'America/New_York';
const TRUSTED_PROXY_ADDRESS = '127.0.0.9';
/**
 * The guarded site's staff sessions end after this long unused (an hour by default): the site sends
 * it to the API at sign-in, which keeps the session.
 */
export const GUARDED_SESSION_IDLE_SECONDS = 12;

const startSite = async (
  processes: TProcess[],
  name: string,
  port: number,
  apiUrl: string,
  apiKey: string,
  // The browser tests change animals through the API and look at once: no public cache there.
  extraEnv: Record<string, string> = { VISITOR_LIMITS: RAISED_LIMITS, PUBLIC_CACHE_SECONDS: '0' },
) => {
  const site = startProcess(
    name,
    process.execPath,
    // Bound to every loopback address, so tests can visit from 127.0.0.N as different visitors.
    [EDGE_SERVER, '--port', String(port), '--hostname', '0.0.0.0'],
    {
      cwd: WEB_DIR,
      env: {
        ...inheritedEnv(),
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        API_URL: apiUrl,
        WEB_API_KEY: apiKey,
        SESSION_SECRET: E2E_SESSION_SECRET,
        REDIS_URL: '',
        STORE_TIME_ZONE: E2E_STORE_TIME_ZONE,
        ...extraEnv,
      },
    },
  );
  processes.push(site);
  const url = `http://127.0.0.1:${port}`;
  // /healthz does not call the API, so waiting spends nothing of a rate-limited key.
  await waitForHttp(site, `${url}/healthz`, (status) => status === 200, SITE_READY_TIMEOUT_MS);
  return url;
};

/** `timings`: when each step was done, for the run's log. */
/** Two requests with the key of 1 request a minute: a limiter answers the second with a 429. */
const probeRateLimits = async (apiUrl: string, key: string): Promise<boolean> => {
  let limited = false;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const response = await fetch(`${apiUrl}/categories`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await response.body?.cancel();
    limited ||= response.status === 429 || response.headers.has('x-ratelimit-limit');
  }
  return limited;
};

export type TRunningStack = { stack: TStack; stop: () => Promise<void>; timings: string[] };

/**
 * A real API on a new PostgreSQL database, keys made with the real key CLI, and the built site
 * served five times (normal, rate-limited, API unreachable, guarded, confirming). `name` tells
 * the logs of one stack from another's (artifacts/logs/<name>-api.log); the first stack has none.
 */
export const startStack = async (name = ''): Promise<TRunningStack> => {
  const named = (process_: string) => (name ? `${name}-${process_}` : process_);
  if (!existsSync(API_MAIN)) {
    throw new Error(
      `The API is not built (${API_MAIN} is missing): run \`pnpm --filter @pets/api build\`, ` +
        'or `pnpm test` at the repo root, which builds it first.',
    );
  }
  if (!existsSync(NEXT_BUILD_ID)) {
    throw new Error(
      'The site is not built (.next/BUILD_ID is missing): run `pnpm --filter @pets/web build`, ' +
        'or `pnpm test` at the repo root, which builds it first.',
    );
  }

  const processes: TProcess[] = [];
  let database: TTestDatabase | undefined;
  let smtp: TSmtpInbox | undefined;
  // The API keeps uploaded photos' files under DATA_DIR/media: a folder of this run, not the
  // repository's .data.
  const dataDir = mkdtempSync(join(tmpdir(), 'pets-web-e2e-'));
  const stop = async () => {
    await Promise.all(processes.map((process_) => stopProcess(process_)));
    await smtp?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const timings: string[] = [];
  try {
    database = await createTestDatabase(testEnv.databaseUrl);
    const mailDir = join(dataDir, 'received-mail');
    smtp = await startSmtpInbox(mailDir);
    const databaseUrl = database.url;
    const smtpUrl = smtp.url;
    const [
      apiPort,
      sitePort,
      limitedPort,
      offlinePort,
      deadPort,
      guardedPort,
      confirmingApiPort,
      confirmingPort,
    ] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);

    const apiEnv = (port: number) => ({
      ...inheritedEnv(),
      NODE_ENV: 'production' as const,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      MEDIA_BASE_URL: `http://127.0.0.1:${port}/media`,
      REDIS_URL: '',
      SMTP_URL: smtpUrl,
      // The links in its emails lead to the main site.
      SITE_URL: `http://127.0.0.1:${sitePort}`,
      // Passkeys: browsers refuse an IP address as the relying party, so passkey-sign-in.spec.ts
      // browses the main site as http://localhost:<port> (a secure context too), its RP ID
      // `localhost`; every other test keeps 127.0.0.1 (docs/decisions.md, "Passkeys").
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: `http://localhost:${sitePort}`,
      // The store's clock as the sites show it: the emails' dates agree.
      STORE_TIME_ZONE: E2E_STORE_TIME_ZONE,
      // Several browser tests sign in at once (each a hash): past the default two at a time the
      // API answers 503 "try again", which a person signing in never meets two at a time. The cap
      // itself is tested in the API (auth.security.test.ts) and by edge-attacks.spec.ts.
      PASSWORD_HASH_CONCURRENCY: '8',
      // The portal's webhook tests receive events on the loopback, over plain HTTP (the refusals
      // of both are tested in the API: webhooks.security.test.ts).
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '200',
      // A saved search's alert follows a new animal within a second (saved-searches.spec.ts).
      SAVED_SEARCH_POLL_INTERVAL_MS: '500',
    });
    const api = startProcess(named('api'), process.execPath, [API_MAIN], {
      cwd: REPO_ROOT,
      // Its access lines: how many calls the site's cached pages cost (edge-attacks.spec.ts).
      env: { ...apiEnv(apiPort), LOG_LEVEL: 'info' },
    });
    processes.push(api);
    const apiUrl = `http://127.0.0.1:${apiPort}/v1`;
    // Any HTTP answer (a 401 without a key) means it is serving; it migrates the database first.
    await waitForHttp(api, `${apiUrl}/categories`, (status) => status < 500, API_READY_TIMEOUT_MS);
    timings.push(`API up ${seconds()}`);
    // Started once the first has migrated the database.
    const confirmingApi = startProcess(named('api-confirming'), process.execPath, [API_MAIN], {
      cwd: REPO_ROOT,
      env: {
        ...apiEnv(confirmingApiPort),
        APPLICATION_CONFIRMATION: 'email',
        JOBS_WORKER: 'off',
        LOG_LEVEL: 'warn',
      },
    });
    processes.push(confirmingApi);
    const confirmingApiUrl = `http://127.0.0.1:${confirmingApiPort}/v1`;
    // The store's real categories and a few dozen animals (the API seeds only its embedded
    // default), and the keys, all at once: each is a separate CLI process on the same database.
    const [
      ,
      webApiKey,
      limitedApiKey,
      staffApiKey,
      partnerApiKey,
      readOnlyApiKey,
      revokedStaffApiKey,
      adminAccount,
      staffAccount,
      deactivatedAccount,
    ] = await Promise.all([
      runCli(database.url, ['db:seed']).catch((error: unknown) => {
        throw cliFailure('db:seed', error);
      }),
      createKey(database.url, ['--plan', 'business', '--name', 'web-e2e', '--first-party']),
      createKey(database.url, [
        '--plan',
        'enterprise',
        '--name',
        'web-e2e-limited',
        '--rpm',
        '1',
        '--rpd',
        '1000',
        '--first-party',
      ]),
      createKey(database.url, ['--plan', 'business', '--name', 'Front desk', '--role', 'staff']),
      createKey(database.url, ['--plan', 'pro', '--name', 'Partner shelter']),
      createKey(database.url, ['--plan', 'pro', '--name', 'Kiosk', '--read-only']),
      createKey(database.url, ['--plan', 'business', '--name', 'Former staff', '--role', 'staff']),
      createAccount(database.url, 'admin', {
        email: 'admin@store.test',
        password: newPassword(),
        name: 'Store admin',
      }),
      createAccount(database.url, 'staff', {
        email: 'desk@store.test',
        password: newPassword(),
        name: 'Front desk',
      }),
      createAccount(database.url, 'staff', {
        email: 'former@store.test',
        password: newPassword(),
        name: 'Former staff',
      }),
    ]);
    try {
      await runCli(database.url, ['accounts', 'deactivate', deactivatedAccount.email]);
    } catch (error) {
      throw cliFailure('accounts deactivate', error);
    }
    // The revoked key: made, then revoked by its display start, as an operator would.
    try {
      await runCli(database.url, [
        'keys',
        'revoke',
        revokedStaffApiKey.slice(0, revokedStaffApiKey.indexOf('_', 5) + 5),
      ]);
    } catch (error) {
      throw cliFailure('keys revoke', error);
    }
    timings.push(`seeded, keys made ${seconds()}`);
    const hasRateLimits = await probeRateLimits(apiUrl, limitedApiKey);
    await waitForHttp(
      confirmingApi,
      `${confirmingApiUrl}/categories`,
      (status) => status < 500,
      API_READY_TIMEOUT_MS,
    );

    const deadApiUrl = `http://127.0.0.1:${deadPort}/v1`;
    const [siteUrl, limitedSiteUrl, offlineSiteUrl, guardedSiteUrl, confirmingSiteUrl] =
      await Promise.all([
        startSite(processes, named('site'), sitePort, apiUrl, webApiKey, {
          VISITOR_LIMITS: RAISED_LIMITS,
          PUBLIC_CACHE_SECONDS: '0',
          MAIL_DIR: mailDir,
        }),
        startSite(processes, named('site-limited'), limitedPort, apiUrl, limitedApiKey),
        startSite(processes, named('site-offline'), offlinePort, deadApiUrl, webApiKey),
        startSite(processes, named('site-guarded'), guardedPort, apiUrl, webApiKey, {
          TRUSTED_PROXIES: TRUSTED_PROXY_ADDRESS,
          STAFF_SESSION_IDLE_SECONDS: String(GUARDED_SESSION_IDLE_SECONDS),
        }),
        startSite(processes, named('site-confirming'), confirmingPort, confirmingApiUrl, webApiKey),
      ]);

    timings.push(`sites up ${seconds()}`);
    return {
      timings,
      stack: {
        apiUrl,
        siteUrl,
        limitedSiteUrl,
        offlineSiteUrl,
        guardedSiteUrl,
        confirmingSiteUrl,
        trustedProxyAddress: TRUSTED_PROXY_ADDRESS,
        apiLogFile: api.logFile,
        siteLogFile: join(LOGS_DIR, `${named('site')}.log`),
        limitedSiteLogFile: join(LOGS_DIR, `${named('site-limited')}.log`),
        guardedSiteLogFile: join(LOGS_DIR, `${named('site-guarded')}.log`),
        webApiKey,
        limitedApiKey,
        staffApiKey,
        partnerApiKey,
        readOnlyApiKey,
        revokedStaffApiKey,
        adminAccount,
        staffAccount,
        deactivatedAccount,
        sessionSecret: E2E_SESSION_SECRET,
        mailDir,
        databaseName: database.name,
        databaseUrl: database.url,
        hasRateLimits,
      },
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
};
