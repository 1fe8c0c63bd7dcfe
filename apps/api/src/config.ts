import { isAbsolute, join, resolve } from 'node:path';
import { isEmailAddress, parseTrustedProxies, type TTrustedProxies } from '@pets/contract/rules';
import { parseStoreConfig, StoreConfigError, type TStoreConfig } from '@pets/contract/store';
import { z } from 'zod';

/** Repository root: apps/api/{src,dist}/.. /.. */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

const ZUrl = (protocols: string[]) =>
  z
    .string()
    .url('must be a URL')
    .refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
      message: `must start with ${protocols.map((protocol) => `${protocol}://`).join(' or ')}`,
    });

const ZBaseUrl = ZUrl(['http', 'https']).refine(
  (value) => value.replace(/\/+$/, '').endsWith('/v1'),
  {
    message: 'must end with /v1',
  },
);

/**
 * Which hops in front of the API to believe about the client's address and protocol
 * (X-Forwarded-For, X-Forwarded-Proto): nobody (unset or `none`, the default: the socket's peer
 * is the client), a hop count from 1 to 10, or addresses, CIDR ranges and the names loopback,
 * linklocal, uniquelocal. The contract's rule (`parseTrustedProxies`), which the site's edge reads
 * too; Fastify's `trustProxy` takes each form.
 */
const ZTrustedProxies = z
  .string()
  .optional()
  .transform((value, context): TTrustedProxies => {
    const parsed = parseTrustedProxies(value);
    if (!parsed.ok) {
      context.addIssue({ code: z.ZodIssueCode.custom, message: parsed.error });
      return z.NEVER;
    }
    return parsed.value;
  });

const ZInteger = (min: number, max: number) =>
  z.coerce
    .number({ invalid_type_error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

/** Room for the file key in a photo's URL, within the contract's PHOTO_URL_MAX_LENGTH. */
const MEDIA_BASE_URL_MAX_LENGTH = 1024;

/**
 * Every variable of the API, each with what it means (`.describe()`): `pnpm docs:config` writes the
 * table of docs/operations.md from it, and a test fails when the two differ.
 */
export const ZEnvironment = z.object({
  PORT: ZInteger(0, 65_535).default(4000).describe('port of the API (`0`: any free port)'),
  HOST: z.string().min(1).default('0.0.0.0').describe('interface the API listens on'),
  /** PostgreSQL to use. Unset: the embedded PostgreSQL (PGlite) kept under DATA_DIR. */
  DATABASE_URL: ZUrl(['postgres', 'postgresql'])
    .optional()
    .describe(
      'PostgreSQL (`postgres://` or `postgresql://`); unset: the embedded PostgreSQL in `DATA_DIR`',
    ),
  /** Where the embedded database lives when DATABASE_URL is unset. Relative to the repo root. */
  DATA_DIR: z
    .string()
    .min(1)
    .default('.data')
    .describe(
      'where the embedded database (and the photo files of the local store) live, relative to the repository',
    ),
  /** Redis for rate limits shared by every API instance. Unset: per-process, in memory. */
  REDIS_URL: ZUrl(['redis', 'rediss'])
    .optional()
    .describe('Redis for rate limits shared by every API process; unset: per process, in memory'),
  /** Prefix of the rate limiter's Redis keys, so deployments sharing one Redis keep apart. */
  REDIS_KEY_PREFIX: z
    .string()
    .min(1)
    .max(100)
    .default('pets:rl:')
    .describe(
      "prefix of the rate limiter's Redis keys, so deployments sharing one Redis keep apart",
    ),
  /**
   * Most client addresses and keys whose rate-limit counters one process keeps in memory (without
   * Redis, or while Redis is unavailable); beyond it the least recently used is evicted and starts
   * afresh. About 0.5 KB each.
   */
  RATE_LIMIT_MEMORY_MAX_TRACKERS: ZInteger(100, 100_000_000)
    .default(100_000)
    .describe(
      'most client addresses and keys whose counters one process keeps in memory (no Redis, or Redis unavailable); beyond it the least recently used starts afresh ([Rate-limit memory](#rate-limit-memory))',
    ),
  /**
   * Failed authentications per client address (docs/errors.md): at most AUTH_FAILURE_LIMIT per
   * AUTH_FAILURE_WINDOW_SECONDS, counted from the first; over it, 429 for any credentials.
   */
  AUTH_FAILURE_LIMIT: ZInteger(1, 1_000_000)
    .default(60)
    .describe(
      'failed authentications allowed per client address per window; over it, `429` for any key ([Rate limits and bans](api.md#rate-limits-and-bans))',
    ),
  AUTH_FAILURE_WINDOW_SECONDS: ZInteger(1, 86_400)
    .default(600)
    .describe("that window, counted from the address's first failure"),
  /** Which environment this deployment is: which key modes it takes (api-keys.service.ts). */
  APP_ENV: z
    .enum(['production', 'staging'], {
      errorMap: () => ({ message: 'must be production or staging' }),
    })
    .default('production')
    .describe(
      '`production` or `staging`: production takes live keys (`pets_live_`) and test keys (`pets_test_`: reads and their own webhook endpoints only), staging takes test keys only; the database records the environment of its first run, and the API refuses to start on a database of the other one (change it on purpose: `pnpm db:environment --set staging`)',
    ),
  PUBLIC_BASE_URL_PRODUCTION: ZBaseUrl.default('https://api.pet-adoption.dev/v1').describe(
    'public address of production, ending in `/v1` (servers of the OpenAPI document)',
  ),
  PUBLIC_BASE_URL_STAGING: ZBaseUrl.default('https://staging-api.pet-adoption.dev/v1').describe(
    'public address of staging, ending in `/v1`',
  ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      errorMap: () => ({
        message: 'must be one of fatal, error, warn, info, debug, trace, silent',
      }),
    })
    .default('info')
    .describe('`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`'),
  /** Comma-separated origins allowed by CORS. Empty: CORS off. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .url('must be a comma-separated list of origins such as https://shop.example')
          .refine((origin) => /^https?:\/\/[^/]+$/.test(origin), {
            message:
              'must be a comma-separated list of origins (scheme, host and port, no path) such as https://shop.example',
          }),
      ),
    )
    .describe('browser origins allowed to call the API, comma-separated; empty: CORS off'),
  /** Size of the PostgreSQL connection pool of one API process. */
  DATABASE_POOL_SIZE: ZInteger(1, 100)
    .default(10)
    .describe('PostgreSQL connections per API process'),
  /**
   * How long one database statement may run (PostgreSQL cancels it: `statement_timeout`), and how
   * long a request waits for a database connection; a hung database is answered 503 in about this
   * time (see poolTimeouts).
   */
  DATABASE_STATEMENT_TIMEOUT_MS: ZInteger(100, 600_000)
    .default(5_000)
    .describe(
      'how long one database statement may run (100 to 600000); a hung database is answered `503` in about this time ([Database timeouts and outages](#database-timeouts-and-outages))',
    ),
  /** Proxies trusted for the client's address and protocol; see ZTrustedProxies. */
  TRUSTED_PROXIES: ZTrustedProxies.describe(
    "the hops in front of the API whose `X-Forwarded-For`/`-Proto` are believed: `none` (unset: the socket's peer is the client), a number of hops from 1 to 10, or addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`, comma-separated; the same rule as the site's ([decisions](decisions.md#trusted_proxies)). Replaces `TRUST_PROXY`, which is refused",
  ),
  /**
   * On SIGTERM, how long in-flight requests may take to finish before their connections are
   * closed anyway (the database is still flushed and closed cleanly afterwards).
   */
  SHUTDOWN_TIMEOUT_SECONDS: ZInteger(0, 600)
    .default(20)
    .describe('on SIGTERM, how long in-flight requests get to finish'),
  // --- Slow clients and connections (docs/operations.md, "Slow clients and connections") ---
  /** Seconds a client has to send one whole request, headers and body (408 request_timeout). */
  REQUEST_TIMEOUT_SECONDS: ZInteger(1, 3_600)
    .default(30)
    .describe('time a client has to send a whole request, headers and body (then `408`)'),
  /** Seconds a client has to send a request's headers (408 request_timeout). */
  HEADERS_TIMEOUT_SECONDS: ZInteger(1, 3_600)
    .default(10)
    .describe(
      "time a client has to send a request's headers (then `408`); at most `REQUEST_TIMEOUT_SECONDS`",
    ),
  /**
   * Seconds an idle keep-alive connection stays open. Behind a proxy that reuses connections
   * (nginx's upstream keepalive_timeout is 60 s, a cloud load balancer's idle timeout often 60 s),
   * keep it longer than the proxy's, so the proxy, not the API, closes idle connections.
   */
  KEEP_ALIVE_TIMEOUT_SECONDS: ZInteger(1, 3_600)
    .default(72)
    .describe(
      "how long an idle keep-alive connection stays open; behind a proxy, longer than the proxy's own",
    ),
  /** Seconds a connection may see no traffic in either direction (slow readers) before it is closed. */
  CONNECTION_TIMEOUT_SECONDS: ZInteger(1, 3_600)
    .default(60)
    .describe(
      'a connection with no traffic either way for this long is closed (a client that stops reading); more than `REQUEST_TIMEOUT_SECONDS`',
    ),
  /** Connections one API process holds at once; more are closed as they arrive. */
  MAX_CONNECTIONS: ZInteger(1, 1_000_000)
    .default(10_000)
    .describe('connections one API process holds at once; more are closed as they arrive'),
  /**
   * How long the response to a request with an Idempotency-Key is kept and replayed to retries:
   * at least the 24 hours the interface promises, at most 30 days.
   */
  IDEMPOTENCY_KEY_TTL_HOURS: ZInteger(24, 720)
    .default(24)
    .describe(
      'how long the answer to a request with an `Idempotency-Key` is replayed to retries (24 to 720)',
    ),
  /**
   * Public address of the photo files: a file's URL is `<MEDIA_BASE_URL>/<key>`
   * (mediaUrl, @pets/store/media-url). Unset: the API's own `/media` on PORT, which serves the files
   * of the local store. With object storage, the bucket's public address or a CDN in front of it.
   */
  MEDIA_BASE_URL: ZUrl(['http', 'https'])
    .refine((value) => value.length <= MEDIA_BASE_URL_MAX_LENGTH, {
      message: `must be at most ${MEDIA_BASE_URL_MAX_LENGTH} characters`,
    })
    .refine((value) => !/[?#]/.test(value), { message: 'must not have a query or a fragment' })
    .optional()
    .describe(
      "public address of the photo files: a photo's URL is `<MEDIA_BASE_URL>/<file key>`; unset: the API's own `http://localhost:<PORT>/media`; with object storage, the bucket's public address or a CDN in front of it. Give the site the same value (its `MEDIA_BASE_URL`, for its CSP)",
    ),
  // --- Email and the job queue (docs/operations.md, "Email") ---
  /** Unset: every message goes to the dev mailbox in MAIL_DIR (`pnpm mail`, the site's /staff/mail). */
  SMTP_URL: ZUrl(['smtp', 'smtps'])
    .optional()
    .describe(
      'the mail server, `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://...:465`; unset: every message goes to the dev mailbox in `MAIL_DIR` ([Email](#email))',
    ),
  MAIL_FROM: z
    .string()
    .trim()
    .min(3)
    .max(200)
    .refine((value) => isEmailAddress(/^[^<>@]*<([^<>]*)>$/.exec(value)?.[1] ?? value), {
      message: 'must be an address, or a name and an address in <>',
    })
    .optional()
    .describe(
      "the sender of every message, `Name <address>` or an address; unset: `STORE_NAME <STORE_EMAIL>` (the store's variables, [docs/site.md](site.md#configuration), are read by the API too, for its emails)",
    ),
  MAIL_DIR: z
    .string()
    .min(1)
    .default('mail')
    .describe(
      'the dev mailbox (used when `SMTP_URL` is unset): a folder of `.eml` files, relative to `DATA_DIR`',
    ),
  /** Where an adopter follows a link in an email: the site, not the API. */
  SITE_URL: ZUrl(['http', 'https'])
    .default('http://localhost:3000')
    .transform((value) => value.replace(/\/+$/, ''))
    .describe('public address of the site, for the links in emails'),
  JOBS_WORKER: z
    .enum(['on', 'off'], { errorMap: () => ({ message: 'must be on or off' }) })
    .default('on')
    .describe(
      "`on`: this process also runs the job queue's worker (sending email); `off`: it only serves requests and queues work for processes that have it on",
    ),
  // --- Webhooks (docs/api.md, "Webhooks") ---
  WEBHOOK_ALLOW_HTTP: z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
    .default('false')
    .transform((value) => value === 'true')
    .describe(
      '`true`: webhook endpoints may be `http` addresses too (development); `false`: `https` only',
    ),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
    .default('false')
    .transform((value) => value === 'true')
    .describe(
      '`true`: webhooks may be sent to loopback, private and link-local addresses (development and tests only: it lets a key make the API call into its own network)',
    ),
  WEBHOOK_RETRY_SCALE: z.coerce
    .number({ invalid_type_error: 'must be a number from 0.00001 to 1' })
    .min(0.00001, 'must be a number from 0.00001 to 1')
    .max(1, 'must be a number from 0.00001 to 1')
    .default(1)
    .describe(
      'multiplies the waits of the webhook retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then 12 h four times: about 3 days); below 1 for tests only',
    ),
  WEBHOOK_POLL_INTERVAL_MS: ZInteger(50, 60_000)
    .default(1000)
    .describe(
      'how often a worker (`JOBS_WORKER=on`) looks for new events and due webhook deliveries, in milliseconds',
    ),
  SAVED_SEARCH_POLL_INTERVAL_MS: ZInteger(50, 3_600_000)
    .default(60_000)
    .describe(
      "how often a worker (`JOBS_WORKER=on`) looks for saved searches due an alert (a new animal matches, and the search's last alert was a day ago or never), in milliseconds",
    ),
  USAGE_FLUSH_INTERVAL_MS: ZInteger(50, 600_000)
    .default(5000)
    .describe(
      "how often each API process adds the requests it counted per key (the developer portal's usage, keys' last use) to the database, in milliseconds; a process killed without a shutdown loses at most this much",
    ),
  STAFF_DIGEST: z
    .enum(['immediate', 'daily'], { errorMap: () => ({ message: 'must be immediate or daily' }) })
    .default('immediate')
    .describe(
      "how staff hear of new applications at `STORE_EMAIL`: `immediate`, one email each; `daily`, one email a day listing the day's applications, at `STAFF_DIGEST_HOUR` on the store's clock",
    ),
  STAFF_DIGEST_HOUR: ZInteger(0, 23)
    .default(8)
    .describe('the hour of the daily digest (`STAFF_DIGEST=daily`), 0 to 23, in `STORE_TIME_ZONE`'),
  APPLICATION_CONFIRMATION: z
    .enum(['none', 'email'], { errorMap: () => ({ message: 'must be none or email' }) })
    .default('none')
    .describe(
      '`email`: a new application starts `unconfirmed` and counts only once its adopter confirms it from the link of the first email (unconfirmed ones are cancelled after 24 hours); `none`: it counts at once',
    ),
  // --- Photo storage (docs/operations.md, "Photo storage") ---
  /**
   * The S3-compatible bucket that holds photo files (AWS S3, MinIO, Cloudflare R2...). Unset: the
   * files live under DATA_DIR/media and the API serves them at /media.
   */
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3 to 63 characters a-z, 0-9, . and -',
    )
    .optional()
    .describe(
      'the S3-compatible bucket for photo files; unset: files under `DATA_DIR/media`, served at `/media` ([Photo storage](#photo-storage))',
    ),
  /** The S3 service's address; unset: AWS S3 of S3_REGION. MinIO: e.g. http://minio:9000. */
  S3_ENDPOINT: ZUrl(['http', 'https'])
    .optional()
    .describe(
      'address of another S3-compatible service (`http://object-store:9000`, MinIO, Cloudflare R2...); unset: AWS S3',
    ),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1')
    .default('us-east-1')
    .describe("the bucket's region"),
  /** Both or neither; neither: the AWS SDK's own chain (AWS_* variables, an instance role). */
  S3_ACCESS_KEY_ID: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe(
      "the bucket's credentials, with `S3_SECRET_ACCESS_KEY` (both or neither); unset: the AWS SDK's own chain",
    ),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe('the secret of `S3_ACCESS_KEY_ID`'),
  /** `true` for services that address buckets by path (MinIO, s3rver), not by host name. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
    .default('false')
    .transform((value) => value === 'true')
    .describe('`true` for services that name buckets in the path (MinIO, RustFS, s3rver)'),
  // --- People's accounts and sessions (docs/decisions.md, "Sessions", "Sign-in throttling") ---
  SESSION_ABSOLUTE_SECONDS_STAFF: ZInteger(1, 2_592_000)
    .default(28_800)
    .describe(
      'how long a staff or admin session lasts at most from sign-in, in seconds (8 hours), whatever its use',
    ),
  SESSION_ABSOLUTE_SECONDS_DEVELOPER: ZInteger(1, 2_592_000)
    .default(604_800)
    .describe('how long a developer session lasts at most from sign-in, in seconds (7 days)'),
  SESSION_IDLE_MAX_SECONDS: ZInteger(1, 604_800)
    .default(28_800)
    .describe(
      'the longest idle timeout a sign-in may ask for, in seconds: a session unused that long ends (the site sends its own, e.g. 1 hour)',
    ),
  PASSWORD_HASH_CONCURRENCY: ZInteger(1, 64)
    .default(2)
    .describe(
      'argon2id hashes (sign-ins, password changes) one API process runs at once; past it, `503 service_unavailable` with `Retry-After: 1`',
    ),
  PASSWORD_HASH_MEMORY_KIB: ZInteger(8_192, 1_048_576)
    .default(19_456)
    .describe(
      "argon2id memory cost of new password hashes, in KiB: OWASP's 19456 (19 MiB); never below 8192",
    ),
  SIGN_IN_ACCOUNT_LIMIT: z
    .string()
    .regex(/^[1-9][0-9]{0,5}\/[1-9][0-9]{0,6},[1-9][0-9]{0,5}\/[1-9][0-9]{0,6}$/, {
      message: 'must be <failures>/<seconds>,<failures>/<seconds> (per visitor, per account)',
    })
    .default('10/900,50/3600')
    .transform((value) => {
      const [visitor = '', account = ''] = value.split(',');
      const window = (part: string) => {
        const [limit = 0, seconds = 0] = part.split('/').map(Number);
        return { limit, seconds };
      };
      return { perVisitor: window(visitor), perAccount: window(account) };
    })
    .describe(
      'failed sign-ins allowed per account and visitor, then per account from every visitor: `<failures>/<seconds>` each (past the second, only a device that signed in before may try)',
    ),
  // --- Passkeys (docs/decisions.md, "Passkeys") ---
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, {
      message: 'must be a domain name, such as example.org (browsers refuse IP addresses)',
    })
    .max(253)
    .optional()
    .describe(
      "the passkeys' relying party: the site's domain (a suffix of its host); unset: `SITE_URL`'s host name. Changing it makes every passkey stop working",
    ),
  WEBAUTHN_ORIGINS: z
    .string()
    .optional()
    .transform((value, context) => {
      const origins = (value ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      for (const origin of origins) {
        try {
          if (new URL(origin).origin !== origin) {
            throw new Error();
          }
        } catch {
          context.addIssue({
            code: 'custom',
            message: `${origin} is not an origin (scheme://host[:port])`,
          });
          return z.NEVER;
        }
      }
      return origins;
    })
    .describe(
      "the origins the site's pages are served from, comma-separated, where passkeys are used; unset: `SITE_URL`'s origin",
    ),
});

/** Rules between the slow-client settings, checked after each is valid on its own. */
const timeoutProblem = (config: z.infer<typeof ZEnvironment>): string | undefined => {
  if (config.HEADERS_TIMEOUT_SECONDS > config.REQUEST_TIMEOUT_SECONDS) {
    return 'HEADERS_TIMEOUT_SECONDS must not be larger than REQUEST_TIMEOUT_SECONDS';
  }
  if (config.CONNECTION_TIMEOUT_SECONDS <= config.REQUEST_TIMEOUT_SECONDS) {
    // Otherwise a stalled upload loses its connection before it can be answered 408.
    return 'CONNECTION_TIMEOUT_SECONDS must be larger than REQUEST_TIMEOUT_SECONDS';
  }
  return undefined;
};

/** Rules between the photo storage settings. */
const storageProblem = (config: z.infer<typeof ZEnvironment>): string | undefined => {
  if ((config.S3_ACCESS_KEY_ID === undefined) !== (config.S3_SECRET_ACCESS_KEY === undefined)) {
    return 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together';
  }
  const isS3Only = config.S3_ENDPOINT ?? config.S3_ACCESS_KEY_ID;
  if (config.S3_BUCKET === undefined && isS3Only !== undefined) {
    return 'S3_BUCKET must be set when S3_ENDPOINT or S3_ACCESS_KEY_ID is';
  }
  // The default MEDIA_BASE_URL is the API's own /media, which serves only the local store.
  if (config.S3_BUCKET !== undefined && config.MEDIA_BASE_URL === undefined) {
    return "MEDIA_BASE_URL must be set when S3_BUCKET is (the bucket's public address or a CDN)";
  }
  return undefined;
};

export type TConfig = z.infer<typeof ZEnvironment> & {
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  /** MEDIA_BASE_URL without trailing slashes, or the API's own `/media` on PORT. */
  mediaBaseUrl: string;
  /** Absolute path of MAIL_DIR. */
  mailDir: string;
  /**
   * The store as its emails describe it: the site's STORE_* variables (docs/site.md), one rule in
   * `@pets/contract/store`, so the site and the emails never disagree.
   */
  store: TStoreConfig;
  /** The passkeys' relying party and the origins their answers may come from (WEBAUTHN_*). */
  webauthn: { rpId: string; origins: string[] };
};

export class ConfigError extends Error {}

/**
 * The API pool's timeouts (`createPool` of @pets/db): statements cancelled by PostgreSQL after
 * DATABASE_STATEMENT_TIMEOUT_MS, an unanswered query given up one second later (a server too hung
 * to cancel), and a connection (free in the pool, or new) awaited as long as a statement.
 */
export const poolTimeouts = (config: Pick<TConfig, 'DATABASE_STATEMENT_TIMEOUT_MS'>) => ({
  statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  connectTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
});

/**
 * Reads and validates the environment once. A bad or missing value throws a ConfigError whose
 * message is one line naming the variable and what is wrong with it.
 */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): TConfig => {
  const withoutEmpty = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  if (withoutEmpty.TRUST_PROXY !== undefined) {
    // Its replacement reads differently (a hop count, no `true`): silently ignoring it would make
    // every client behind the proxy one address.
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY was replaced by TRUSTED_PROXIES (none, a number of hops, or addresses and ranges)',
    );
  }
  const result = ZEnvironment.safeParse(withoutEmpty);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = issue?.path[0] ?? 'environment';
    throw new ConfigError(
      `Invalid configuration: ${String(variable)} ${issue?.message ?? 'is invalid'}`,
    );
  }
  const config = result.data;
  const problem = timeoutProblem(config) ?? storageProblem(config);
  if (problem) {
    throw new ConfigError(`Invalid configuration: ${problem}`);
  }
  let store: TStoreConfig;
  try {
    store = parseStoreConfig(withoutEmpty);
  } catch (error) {
    throw error instanceof StoreConfigError ? new ConfigError(error.message) : error;
  }
  const dataDir = isAbsolute(config.DATA_DIR) ? config.DATA_DIR : join(REPO_ROOT, config.DATA_DIR);
  return {
    ...config,
    dataDir,
    store,
    mailDir: isAbsolute(config.MAIL_DIR) ? config.MAIL_DIR : join(dataDir, config.MAIL_DIR),
    webauthn: {
      rpId: config.WEBAUTHN_RP_ID ?? new URL(config.SITE_URL).hostname,
      origins:
        config.WEBAUTHN_ORIGINS.length > 0
          ? config.WEBAUTHN_ORIGINS
          : [new URL(config.SITE_URL).origin],
    },
    mediaBaseUrl: (config.MEDIA_BASE_URL ?? `http://localhost:${config.PORT}/media`).replace(
      /\/+$/,
      '',
    ),
  };
};
