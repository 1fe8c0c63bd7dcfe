import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, poolTimeouts } from './config';
import { runApiProcess } from './test/api-process';

const messageOf = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
};

describe('loadConfig', () => {
  it('has a default for everything: no setup needed to start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 4000,
      HOST: '0.0.0.0',
      APP_ENV: 'production',
      LOG_LEVEL: 'info',
      CORS_ORIGINS: [],
      DATABASE_POOL_SIZE: 10,
      REDIS_KEY_PREFIX: 'pets:rl:',
      TRUSTED_PROXIES: false,
      SHUTDOWN_TIMEOUT_SECONDS: 20,
      REQUEST_TIMEOUT_SECONDS: 30,
      HEADERS_TIMEOUT_SECONDS: 10,
      KEEP_ALIVE_TIMEOUT_SECONDS: 72,
      CONNECTION_TIMEOUT_SECONDS: 60,
      MAX_CONNECTIONS: 10_000,
      IDEMPOTENCY_KEY_TTL_HOURS: 24,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/[/\\]\.data$/);
  });

  it('an empty value counts as unset', () => {
    const config = loadConfig({ PORT: '', REDIS_URL: '' });
    expect(config.PORT).toBe(4000);
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('reads lists and proxies', () => {
    expect(
      loadConfig({
        CORS_ORIGINS: 'https://shop.example, http://localhost:3000',
        TRUSTED_PROXIES: 'loopback, 10.0.0.0/8, 192.168.1.7',
      }),
    ).toMatchObject({
      CORS_ORIGINS: ['https://shop.example', 'http://localhost:3000'],
      TRUSTED_PROXIES: ['loopback', '10.0.0.0/8', '192.168.1.7'],
    });
  });

  it('TRUSTED_PROXIES: nobody by default, a hop count, or addresses and ranges', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toBe(false);
    expect(loadConfig({ TRUSTED_PROXIES: 'none' }).TRUSTED_PROXIES).toBe(false);
    expect(loadConfig({ TRUSTED_PROXIES: '1' }).TRUSTED_PROXIES).toBe(1);
    expect(loadConfig({ TRUSTED_PROXIES: '2' }).TRUSTED_PROXIES).toBe(2);
    expect(loadConfig({ TRUSTED_PROXIES: 'uniquelocal' }).TRUSTED_PROXIES).toEqual(['uniquelocal']);
    expect(loadConfig({ TRUSTED_PROXIES: '::1, fd00::/8' }).TRUSTED_PROXIES).toEqual([
      '::1',
      'fd00::/8',
    ]);
  });

  it('refuses the old TRUST_PROXY in one line, rather than silently trusting nobody', () => {
    expect(messageOf({ TRUST_PROXY: 'uniquelocal' })).toBe(
      'Invalid configuration: TRUST_PROXY was replaced by TRUSTED_PROXIES (none, a number of hops, or addresses and ranges)',
    );
  });

  it.each([
    ['PORT', 'abc', 'PORT must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'PORT must be a whole number from 0 to 65535'],
    [
      'DATABASE_URL',
      'mysql://db/pets',
      'DATABASE_URL must start with postgres:// or postgresql://',
    ],
    ['DATABASE_URL', 'not a url', 'DATABASE_URL must be a URL'],
    ['REDIS_URL', 'http://cache:6379', 'REDIS_URL must start with redis:// or rediss://'],
    ['APP_ENV', 'dev', 'APP_ENV must be production or staging'],
    [
      'PUBLIC_BASE_URL_PRODUCTION',
      'https://api.shop.example',
      'PUBLIC_BASE_URL_PRODUCTION must end with /v1',
    ],
    [
      'PUBLIC_BASE_URL_STAGING',
      'ftp://x/v1',
      'PUBLIC_BASE_URL_STAGING must start with http:// or https://',
    ],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [
      'CORS_ORIGINS',
      'https://shop.example/app',
      'CORS_ORIGINS must be a comma-separated list of origins',
    ],
    ['CORS_ORIGINS', 'shop.example', 'CORS_ORIGINS must be a comma-separated list of origins'],
    ['DATABASE_POOL_SIZE', '0', 'DATABASE_POOL_SIZE must be a whole number from 1 to 100'],
    ['TRUSTED_PROXIES', '10.0.0.0/33', 'TRUSTED_PROXIES must be none, a number of hops'],
    ['TRUSTED_PROXIES', 'true', 'TRUSTED_PROXIES must be none, a number of hops'],
    ['TRUSTED_PROXIES', '0', 'TRUSTED_PROXIES must be none, a number of hops'],
    ['TRUSTED_PROXIES', '11', 'TRUSTED_PROXIES must be none, a number of hops'],
    ['TRUSTED_PROXIES', 'proxy.internal', 'TRUSTED_PROXIES must be none, a number of hops'],
    [
      'SHUTDOWN_TIMEOUT_SECONDS',
      '-1',
      'SHUTDOWN_TIMEOUT_SECONDS must be a whole number from 0 to 600',
    ],
    [
      'REQUEST_TIMEOUT_SECONDS',
      '0',
      'REQUEST_TIMEOUT_SECONDS must be a whole number from 1 to 3600',
    ],
    [
      'HEADERS_TIMEOUT_SECONDS',
      '2.5',
      'HEADERS_TIMEOUT_SECONDS must be a whole number from 1 to 3600',
    ],
    [
      'KEEP_ALIVE_TIMEOUT_SECONDS',
      'long',
      'KEEP_ALIVE_TIMEOUT_SECONDS must be a whole number from 1 to 3600',
    ],
    [
      'CONNECTION_TIMEOUT_SECONDS',
      '-5',
      'CONNECTION_TIMEOUT_SECONDS must be a whole number from 1 to 3600',
    ],
    ['MAX_CONNECTIONS', '0', 'MAX_CONNECTIONS must be a whole number from 1 to 1000000'],
    // The interface promises at least 24 hours of replays.
    [
      'IDEMPOTENCY_KEY_TTL_HOURS',
      '1',
      'IDEMPOTENCY_KEY_TTL_HOURS must be a whole number from 24 to 720',
    ],
    [
      'IDEMPOTENCY_KEY_TTL_HOURS',
      '1.5',
      'IDEMPOTENCY_KEY_TTL_HOURS must be a whole number from 24 to 720',
    ],
  ])('%s=%s: one line naming the variable and what is wrong', (name, value, expected) => {
    const message = messageOf({ [name]: value });
    expect(message.startsWith(`Invalid configuration: ${expected}`)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('reads the slow-client settings, and refuses timeouts that contradict each other', () => {
    expect(
      loadConfig({
        REQUEST_TIMEOUT_SECONDS: '5',
        HEADERS_TIMEOUT_SECONDS: '5',
        KEEP_ALIVE_TIMEOUT_SECONDS: '65',
        CONNECTION_TIMEOUT_SECONDS: '6',
        MAX_CONNECTIONS: '500',
      }),
    ).toMatchObject({
      REQUEST_TIMEOUT_SECONDS: 5,
      HEADERS_TIMEOUT_SECONDS: 5,
      KEEP_ALIVE_TIMEOUT_SECONDS: 65,
      CONNECTION_TIMEOUT_SECONDS: 6,
      MAX_CONNECTIONS: 500,
    });
    // Node refuses a headers timeout longer than the request timeout.
    expect(messageOf({ HEADERS_TIMEOUT_SECONDS: '40' })).toBe(
      'Invalid configuration: HEADERS_TIMEOUT_SECONDS must not be larger than REQUEST_TIMEOUT_SECONDS',
    );
    // A stalled upload must get its 408 before the idle connection is cut.
    expect(messageOf({ REQUEST_TIMEOUT_SECONDS: '60' })).toBe(
      'Invalid configuration: CONNECTION_TIMEOUT_SECONDS must be larger than REQUEST_TIMEOUT_SECONDS',
    );
  });

  describe('DATABASE_STATEMENT_TIMEOUT_MS', () => {
    it('defaults to 5 s, for statements and for waiting on a connection', () => {
      const config = loadConfig({});
      expect(config.DATABASE_STATEMENT_TIMEOUT_MS).toBe(5_000);
      expect(poolTimeouts(config)).toEqual({ statementTimeoutMs: 5_000, connectTimeoutMs: 5_000 });
      expect(
        loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '1500' }).DATABASE_STATEMENT_TIMEOUT_MS,
      ).toBe(1_500);
    });

    it.each(['0', '99', '600001', '2s', '1.5'])('%s: one line naming it', (value) => {
      const message = messageOf({ DATABASE_STATEMENT_TIMEOUT_MS: value });
      expect(message).toBe(
        'Invalid configuration: DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 100 to 600000',
      );
    });
  });

  it('never repeats a value that may hold a password', () => {
    const message = messageOf({ DATABASE_URL: 'mysql://pets:s3cret-pw@db/pets' });
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('s3cret-pw');
  });
});

describe('the built API with a bad configuration', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'pets-config-')), 'data');
  });
  afterAll(async () => {
    await rm(join(dataDir, '..'), { recursive: true, force: true });
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['APP_ENV', { APP_ENV: 'prod' }],
  ])('%s: exits 1 at once with one line on stderr, having opened nothing', async (name, env) => {
    const result = await runApiProcess({ ...env, DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Invalid configuration: ${name} must `));
    expect(result.stdout).toBe('');
    // Stopped before the database: the embedded one was not even created.
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('RATE_LIMIT_MEMORY_MAX_TRACKERS', () => {
  it('defaults to 100,000 and takes a whole number', () => {
    expect(loadConfig({}).RATE_LIMIT_MEMORY_MAX_TRACKERS).toBe(100_000);
    expect(
      loadConfig({ RATE_LIMIT_MEMORY_MAX_TRACKERS: '5000' }).RATE_LIMIT_MEMORY_MAX_TRACKERS,
    ).toBe(5_000);
  });

  it.each(['0', '99', '1.5', 'many'])('%s: one line naming the variable', (value) => {
    const message = messageOf({ RATE_LIMIT_MEMORY_MAX_TRACKERS: value });
    expect(
      message.startsWith(
        'Invalid configuration: RATE_LIMIT_MEMORY_MAX_TRACKERS must be a whole number from 100 to 100000000',
      ),
    ).toBe(true);
    expect(message).not.toContain('\n');
  });
});

describe('the failed-authentication budget (AUTH_FAILURE_*)', () => {
  it('defaults to 60 failures per 10 minutes', () => {
    expect(loadConfig({})).toMatchObject({
      AUTH_FAILURE_LIMIT: 60,
      AUTH_FAILURE_WINDOW_SECONDS: 600,
    });
    expect(
      loadConfig({ AUTH_FAILURE_LIMIT: '200', AUTH_FAILURE_WINDOW_SECONDS: '60' }),
    ).toMatchObject({ AUTH_FAILURE_LIMIT: 200, AUTH_FAILURE_WINDOW_SECONDS: 60 });
  });

  it.each([
    ['AUTH_FAILURE_LIMIT', '0', 'AUTH_FAILURE_LIMIT must be a whole number from 1 to 1000000'],
    ['AUTH_FAILURE_LIMIT', 'many', 'AUTH_FAILURE_LIMIT must be a whole number from 1 to 1000000'],
    [
      'AUTH_FAILURE_WINDOW_SECONDS',
      '86401',
      'AUTH_FAILURE_WINDOW_SECONDS must be a whole number from 1 to 86400',
    ],
    [
      'AUTH_FAILURE_WINDOW_SECONDS',
      '1.5',
      'AUTH_FAILURE_WINDOW_SECONDS must be a whole number from 1 to 86400',
    ],
  ])('%s=%s: one line naming the variable', (name, value, expected) => {
    const message = messageOf({ [name]: value });
    expect(message.startsWith(`Invalid configuration: ${expected}`)).toBe(true);
    expect(message).not.toContain('\n');
  });
});

describe('the address of photo files (MEDIA_BASE_URL)', () => {
  it("defaults to the API's own /media on PORT", () => {
    expect(loadConfig({}).mediaBaseUrl).toBe('http://localhost:4000/media');
    expect(loadConfig({ PORT: '8080' }).mediaBaseUrl).toBe('http://localhost:8080/media');
  });

  it('takes a bucket or CDN address, without its trailing slashes', () => {
    expect(loadConfig({ MEDIA_BASE_URL: 'https://cdn.shop.example/pets/' }).mediaBaseUrl).toBe(
      'https://cdn.shop.example/pets',
    );
  });

  it.each([
    ['ftp://cdn.example', 'MEDIA_BASE_URL must start with http:// or https://'],
    ['cdn.example', 'MEDIA_BASE_URL must be a URL'],
    ['https://cdn.example/media?v=1', 'MEDIA_BASE_URL must not have a query or a fragment'],
    [`https://cdn.example/${'a'.repeat(1024)}`, 'MEDIA_BASE_URL must be at most 1024 characters'],
  ])('%s: one line naming the variable', (value, expected) => {
    const message = messageOf({ MEDIA_BASE_URL: value });
    expect(message).toBe(`Invalid configuration: ${expected}`);
  });
});

describe('photo storage (S3_*)', () => {
  const S3 = {
    S3_BUCKET: 'pets-photos',
    MEDIA_BASE_URL: 'https://photos.example.org',
  };

  it('defaults to the local store: no bucket, us-east-1, virtual-hosted style', () => {
    const config = loadConfig({});
    expect(config.S3_BUCKET).toBeUndefined();
    expect(config.S3_REGION).toBe('us-east-1');
    expect(config.S3_FORCE_PATH_STYLE).toBe(false);
  });

  it('reads a bucket of an S3-compatible service', () => {
    const config = loadConfig({
      ...S3,
      S3_ENDPOINT: 'http://object-store:9000',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'pets',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config).toMatchObject({
      S3_BUCKET: 'pets-photos',
      S3_ENDPOINT: 'http://object-store:9000',
      S3_REGION: 'eu-west-3',
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it.each([
    [{ S3_BUCKET: 'Pets_Photos' }, 'S3_BUCKET must be a bucket name'],
    [{ ...S3, S3_ENDPOINT: 'object-store:9000' }, 'S3_ENDPOINT must '],
    [{ ...S3, S3_REGION: 'EU West' }, 'S3_REGION must be a region name'],
    [{ ...S3, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be true or false'],
    [
      { ...S3, S3_ACCESS_KEY_ID: 'pets' },
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    ],
    [
      { S3_ENDPOINT: 'http://object-store:9000' },
      'S3_BUCKET must be set when S3_ENDPOINT or S3_ACCESS_KEY_ID is',
    ],
    [{ S3_BUCKET: 'pets-photos' }, 'MEDIA_BASE_URL must be set when S3_BUCKET is'],
  ])('%o: one line naming the variable', (env, expected) => {
    const message = messageOf(env);
    expect(message.startsWith(`Invalid configuration: ${expected}`)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('never repeats the secret key', () => {
    const message = messageOf({ ...S3, S3_SECRET_ACCESS_KEY: 'very-secret-value' });
    expect(message).not.toContain('very-secret-value');
  });
});
