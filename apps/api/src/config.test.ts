import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
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
      TRUST_PROXY: false,
      SHUTDOWN_TIMEOUT_SECONDS: 20,
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
        TRUST_PROXY: 'loopback, 10.0.0.0/8, 192.168.1.7',
      }),
    ).toMatchObject({
      CORS_ORIGINS: ['https://shop.example', 'http://localhost:3000'],
      TRUST_PROXY: ['loopback', '10.0.0.0/8', '192.168.1.7'],
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
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
    ['TRUST_PROXY', '10.0.0.0/33', 'TRUST_PROXY must be true, false, or addresses'],
    ['TRUST_PROXY', 'yes', 'TRUST_PROXY must be true, false, or addresses'],
    [
      'SHUTDOWN_TIMEOUT_SECONDS',
      '-1',
      'SHUTDOWN_TIMEOUT_SECONDS must be a whole number from 0 to 600',
    ],
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
