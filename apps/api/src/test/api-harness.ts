import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPool, createPrismaClient, type PrismaClient } from '@pets/db';
import { ApiKeysRepository, type TNewApiKeyInput } from '@pets/store/api-keys.repository';
import type { Pool } from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { TKeyCacheSettings } from '../api-keys/api-keys.service';
import type { TStoredApiKey } from '../api-keys/caller';
import { createApp } from '../app';
import { loadConfig, poolTimeouts, type TConfig } from '../config';
import type { TIdempotencySettings } from '../idempotency/idempotency.types';
import { createLogger } from '../logging/logger';
import type { TRateLimitSettings } from '../rate-limit/rate-limit.types';
import { createTestDatabase, type TTestDatabase } from './test-database';

export type TTestApi = {
  baseUrl: string;
  /** The application, for what a test must reach in-process (a service's local cache). */
  app: NestFastifyApplication;
  config: TConfig;
  prisma: PrismaClient;
  /** The test's own connections to its database, for the store's functions. */
  pool: Pool;
  /** The API keys of the test's database (creating, revoking). */
  apiKeys: ApiKeysRepository;
  database: TTestDatabase;
  /** Every JSON log line the API wrote, parsed. */
  logs: Record<string, unknown>[];
  /** Raw log output, for greps (a key must never appear in it). */
  rawLogs: () => string;
  /** How many times the key lookup reached the database. */
  keyLookups: () => number;
  /** Creates a key in the database and returns it in plain text. */
  createKey: (input?: Partial<TNewApiKeyInput>) => Promise<string>;
  fetch: (path: string, init?: RequestInit & { key?: string | null }) => Promise<Response>;
  close: () => Promise<void>;
};

/**
 * Boots the real application on its own freshly migrated PostgreSQL database and a free port.
 * Requests go over real HTTP; nothing is mocked.
 */
export type TTestApiOptions = {
  env?: Record<string, string>;
  /** Points the application (not the test's own client) at another database, e.g. a dead one. */
  appDatabaseUrl?: string;
  /** Shorter windows and bans for tests, and a Redis key prefix of their own. */
  rateLimit?: Partial<TRateLimitSettings>;
  /** The key cache's clock (and ages): a test clock moves time forward instead of waiting. */
  keyCache?: Partial<TKeyCacheSettings>;
  /** Another instance's database: several API instances on one database. Not dropped on close. */
  database?: TTestDatabase;
  /** The idempotency store's clock, wait and sweeper, for tests. */
  idempotency?: Partial<TIdempotencySettings>;
  /** What the key `fetch` uses by default is (a Business partner key unless told). */
  defaultKey?: Partial<TNewApiKeyInput>;
};

export const startTestApi = async ({
  env = {},
  appDatabaseUrl,
  rateLimit,
  keyCache,
  database: sharedDatabase,
  idempotency,
  defaultKey: defaultKeyInput,
}: TTestApiOptions = {}): Promise<TTestApi> => {
  const database = sharedDatabase ?? (await createTestDatabase());
  // Uploaded photos go to DATA_DIR/media: a folder of this test's own, never the checkout's .data.
  const ownDataDir =
    env.DATA_DIR === undefined ? mkdtempSync(join(tmpdir(), 'pets-test-api-')) : undefined;
  const removeDataDir = () => {
    if (ownDataDir) {
      rmSync(ownDataDir, { recursive: true, force: true });
    }
  };
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'info',
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    ...env,
  });
  // The API's own timeouts (DATABASE_STATEMENT_TIMEOUT_MS), as main.ts gives them.
  const pool = createPool(database.url, 5, undefined, poolTimeouts(config));
  const prisma = createPrismaClient(pool);
  const appPool = appDatabaseUrl
    ? createPool(appDatabaseUrl, 2, undefined, poolTimeouts(config))
    : pool;
  const disconnect = async () => {
    await prisma.$disconnect();
    await Promise.all([...new Set([pool, appPool])].map((each) => each.end()));
  };
  const chunks: string[] = [];
  const logger = createLogger(
    config.LOG_LEVEL,
    new Writable({
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        callback();
      },
    }),
  );
  const apiKeys = new ApiKeysRepository(pool);
  const appKeys = new ApiKeysRepository(appPool);
  let lookups = 0;
  const apiKeyLookup = async (hash: string): Promise<TStoredApiKey | null> => {
    lookups += 1;
    return appKeys.findByHash(hash);
  };
  let app: NestFastifyApplication;
  try {
    app = await createApp({
      config,
      pool: appPool,
      logger,
      apiKeyLookup,
      rateLimitSettings: rateLimit,
      keyCache,
      idempotencySettings: idempotency,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await disconnect();
    if (!sharedDatabase) {
      await database.drop();
    }
    removeDataDir();
    throw error;
  }
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;

  let defaultKey: string | undefined;
  const createKey = async (input: Partial<TNewApiKeyInput> = {}) =>
    (
      await apiKeys.create({
        name: 'test',
        plan: 'business',
        environment: config.APP_ENV,
        ...input,
      })
    ).key;

  return {
    baseUrl,
    app,
    config,
    prisma,
    pool,
    apiKeys,
    database,
    get logs() {
      return chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    rawLogs: () => chunks.join(''),
    keyLookups: () => lookups,
    createKey,
    fetch: async (path, { key, headers, ...init } = {}) => {
      if (key === undefined) {
        defaultKey ??= await createKey(defaultKeyInput);
      }
      const authorization = key === undefined ? defaultKey : key;
      return fetch(`${baseUrl}${path}`, {
        ...init,
        headers: {
          ...(authorization ? { authorization: `Bearer ${authorization}` } : {}),
          ...(headers as Record<string, string> | undefined),
        },
      });
    },
    close: async () => {
      await app.close();
      await disconnect();
      if (!sharedDatabase) {
        await database.drop();
      }
      removeDataDir();
    },
  };
};

/**
 * One test API for the enclosing suite: started in beforeAll, closed in afterAll. The handle it
 * returns stands for that API (its fields are read from it once started), so suites write
 * `const api = useTestApi();` and use it in their tests and later hooks.
 */
export const useTestApi = (options?: TTestApiOptions): TTestApi => {
  let started: TTestApi | undefined;
  beforeAll(async () => {
    started = await startTestApi(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as TTestApi, {
    get: (_target, field) => {
      if (!started) {
        throw new Error('useTestApi(): the API starts in beforeAll; use it in tests and hooks');
      }
      return Reflect.get(started, field);
    },
  });
};

/** Sends a JSON body. */
export const json = (body: unknown, init: RequestInit & { key?: string | null } = {}) => ({
  ...init,
  method: init.method ?? 'POST',
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
});

/** Asserts nothing: reads a response's error body for expectations. */
export const errorBody = async (response: Response) =>
  (await response.json()) as {
    code: string;
    message: string;
    status: number;
    details?: { field: string; message: string }[];
  };
