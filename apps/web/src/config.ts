import { API_PATH_PREFIX } from '@pets/contract';
import { parseTrustedProxies, type TTrustedProxies } from '@pets/contract/rules';
import { z } from 'zod';
import { parseVisitorLimits, type TVisitorLimits } from './edge/visitor-limits';
import { ConfigError, configError, parseEnvironment } from './environment';

/**
 * The site's configuration, validated once (see env.ts). Pure: it takes the environment as an
 * argument so it can be tested; env.ts is the only module that reads `process.env`.
 */
/**
 * Every variable of the site, each with what it means (`.describe()`): `pnpm docs:config` writes the
 * table of docs/operations.md from it, and a test fails when the two differ.
 */
export const ZWebEnvironment = z.object({
  /** Base address of the v1 API, ending in /v1. */
  API_URL: z
    .string()
    .url('must be a URL such as http://localhost:4000/v1')
    .refine((value) => /^https?:/.test(value), { message: 'must start with http:// or https://' })
    .refine((value) => value.replace(/\/+$/, '').endsWith(API_PATH_PREFIX), {
      message: `must end with ${API_PATH_PREFIX}`,
    })
    .default('http://localhost:4000/v1')
    .describe("the API's base address, ending in `/v1`"),
  /**
   * The API's MEDIA_BASE_URL: where browsers load the photos from, so the pages' CSP allows it.
   * Unset: the API's own default, its `/media` (on API_URL's origin).
   */
  MEDIA_BASE_URL: z
    .string()
    .url('must be a URL such as http://localhost:4000/media')
    .refine((value) => /^https?:/.test(value), { message: 'must start with http:// or https://' })
    .optional()
    .describe(
      "the API's `MEDIA_BASE_URL`, the public address of the photos (give both the same value): the pages' CSP lets browsers load images from its origin, a loopback address under both its names (`localhost` and `127.0.0.1`); unset: the API's own `/media` on `API_URL`'s origin. `pnpm start`, `pnpm dev` and compose give both the same",
    ),
  /** The site's own API key. Server-only: it never reaches a browser. */
  WEB_API_KEY: z
    .string({ required_error: 'is required (the API key the site uses to call the API)' })
    .trim()
    .min(1, 'must not be empty')
    .describe(
      "the site's API key, a first-party key; server-only, never sent to a browser. `pnpm start` makes one and keeps it in `DATA_DIR`",
    ),
  /**
   * Encrypts the staff session cookie (iron-session): at least 32 characters, secret, the same
   * on every instance of the site. `pnpm start` generates one for local use (scripts/run-stack.mjs).
   */
  SESSION_SECRET: z
    .string({
      required_error:
        'is required (at least 32 random characters that encrypt the staff session cookie)',
    })
    .min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)')
    .describe(
      'at least 32 random characters sealing the staff session cookie (`openssl rand -base64 32`); the same on every instance; changing it signs everyone out. `pnpm start` generates one in `DATA_DIR` for local use: not for production',
    ),
  /**
   * The address people reach the site at, e.g. https://adopt.example.org. Its scheme decides the
   * session cookie's `Secure` flag and HSTS, and its origin is the only one whose form posts are
   * accepted; never a header a client sends. Unset (local use): plain HTTP, the request's own host.
   */
  SITE_URL: z
    .string()
    .url('must be the address of the site, such as https://adopt.example.org')
    .refine((value) => /^https?:\/\/[^/]+\/?$/.test(value), {
      message:
        'must be an origin (scheme, host and port, no path), such as https://adopt.example.org',
    })
    .optional()
    .describe(
      "the address people reach the site at (`https://adopt.example.org`); `https` makes the session cookie `Secure` and sends HSTS, and its origin is the only one whose forms are accepted; unset: plain HTTP, the request's own host",
    ),
  /** Which proxies in front of the site may name the visitor's address (the API reads the same rule). */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .describe(
      "the hops in front of the site whose `X-Forwarded-For` names the visitor, with the API's rule; unset: `none` ([Visitors and limits](site.md#visitors-and-limits))",
    ),
  /** Redis shared by every instance of the site: visitor limits and staff sessions. Unset: memory. */
  REDIS_URL: z
    .string()
    .url('must be a URL such as redis://127.0.0.1:6379')
    .refine((value) => /^rediss?:/.test(value), {
      message: 'must start with redis:// or rediss://',
    })
    .optional()
    .describe(
      "Redis for visitor limits and staff sessions shared by every instance of the site; unset: in the instance's memory",
    ),
  /** Prefix of the site's Redis keys, so deployments sharing one Redis keep apart. */
  WEB_REDIS_KEY_PREFIX: z
    .string()
    .min(1)
    .max(100)
    .default('pets:web:')
    .describe("prefix of the site's Redis keys"),
  /**
   * How long a public read (home, browse, an animal) serves every visitor before it is refreshed;
   * 0: no cache, every page view asks the API.
   */
  PUBLIC_CACHE_SECONDS: z.coerce
    .number({ invalid_type_error: 'must be a whole number of seconds from 0 to 3600' })
    .int('must be a whole number of seconds from 0 to 3600')
    .min(0, 'must be a whole number of seconds from 0 to 3600')
    .max(3_600, 'must be a whole number of seconds from 0 to 3600')
    .default(30)
    .describe(
      'how long a public read (home, browse, an animal) serves every visitor before it is refreshed (categories ten times as long); `0`: no cache',
    ),
  /** Sent to the API at sign-in: a staff session unused this long ends (sign in again). */
  STAFF_SESSION_IDLE_SECONDS: z.coerce
    .number({ invalid_type_error: 'must be a whole number of seconds from 10 to 28800' })
    .int('must be a whole number of seconds from 10 to 28800')
    .min(10, 'must be a whole number of seconds from 10 to 28800')
    .max(28_800, 'must be a whole number of seconds from 10 to 28800')
    .default(3_600)
    .describe(
      'a staff session unused this long ends (10 to 28800); sent to the API at sign-in, which keeps the session',
    ),
  /** The API's dev mailbox (its MAIL_DIR, absolute), shown at /staff/mail. */
  MAIL_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the API's dev mailbox folder (its `MAIL_DIR`, as an absolute path), where email goes when the API has no `SMTP_URL`: admins read it at `/staff/mail`; `pnpm start` sets it; unset: that page says email goes out through the mail server",
    ),
  /** Overrides of the per-visitor limits, e.g. `page=600/60,sign-in=10/600` (see edge/visitor-limits.ts). */
  VISITOR_LIMITS: z
    .string()
    .optional()
    .describe(
      'the per-visitor limits, `name=points/seconds` pairs separated by commas (`page=600/60,sign-in=10/600`); unset: the defaults of [Visitors and limits](site.md#visitors-and-limits)',
    ),
});

export type TWebConfig = {
  /** API_URL as configured, without a trailing slash. */
  apiUrl: string;
  /**
   * What the contract's client needs as `baseUrl`: API_URL without its /v1, since every path of
   * the contract already starts with /v1.
   */
  apiBaseUrl: string;
  /** Where the photos are: MEDIA_BASE_URL, or the API's own `/media`; for the CSP. */
  mediaBaseUrl: string;
  apiKey: string;
  /** Encrypts the staff session cookie. Server-only, like the key. */
  sessionSecret: string;
  /** SITE_URL's origin, or undefined (local use: the request's own host, plain HTTP). */
  siteOrigin: string | undefined;
  /** Whether the site is served over HTTPS: the cookie's `Secure` flag and HSTS. */
  isHttps: boolean;
  trustedProxies: TTrustedProxies;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  limits: TVisitorLimits;
  staffSessionIdleSeconds: number;
  publicCacheSeconds: number;
  /** The dev mailbox folder, when there is one to show. */
  mailDir: string | undefined;
};

export { ConfigError };

export const parseWebConfig = (environment: Record<string, string | undefined>): TWebConfig => {
  const variables = parseEnvironment(ZWebEnvironment, environment);
  const apiUrl = variables.API_URL.replace(/\/+$/, '');
  const proxies = parseTrustedProxies(variables.TRUSTED_PROXIES);
  if (!proxies.ok) {
    throw configError('TRUSTED_PROXIES', proxies.error);
  }
  const limits = parseVisitorLimits(variables.VISITOR_LIMITS);
  if (!limits.ok) {
    throw configError('VISITOR_LIMITS', limits.error);
  }
  const siteOrigin = variables.SITE_URL ? new URL(variables.SITE_URL).origin : undefined;
  return {
    apiUrl,
    apiBaseUrl: apiUrl.slice(0, -API_PATH_PREFIX.length),
    mediaBaseUrl: (variables.MEDIA_BASE_URL ?? `${new URL(apiUrl).origin}/media`).replace(
      /\/+$/,
      '',
    ),
    apiKey: variables.WEB_API_KEY,
    sessionSecret: variables.SESSION_SECRET,
    siteOrigin,
    isHttps: siteOrigin?.startsWith('https:') ?? false,
    trustedProxies: proxies.value,
    redisUrl: variables.REDIS_URL,
    redisKeyPrefix: variables.WEB_REDIS_KEY_PREFIX,
    limits: limits.value,
    staffSessionIdleSeconds: variables.STAFF_SESSION_IDLE_SECONDS,
    publicCacheSeconds: variables.PUBLIC_CACHE_SECONDS,
    mailDir: variables.MAIL_DIR,
  };
};
