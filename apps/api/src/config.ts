import { isAbsolute, join, resolve } from 'node:path';
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

const ZEnvironment = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** PostgreSQL to use. Unset: the embedded PostgreSQL (PGlite) kept under DATA_DIR. */
  DATABASE_URL: ZUrl(['postgres', 'postgresql']).optional(),
  /** Where the embedded database lives when DATABASE_URL is unset. Relative to the repo root. */
  DATA_DIR: z.string().min(1).default('.data'),
  /** Redis for rate limits shared by every API instance. Unset: per-process, in memory. */
  REDIS_URL: ZUrl(['redis', 'rediss']).optional(),
  /** Which environment this deployment is: keys of the other environment are refused. */
  APP_ENV: z.enum(['production', 'staging']).default('production'),
  PUBLIC_BASE_URL_PRODUCTION: ZBaseUrl.default('https://api.pet-adoption.dev/v1'),
  PUBLIC_BASE_URL_STAGING: ZBaseUrl.default('https://staging-api.pet-adoption.dev/v1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
    .pipe(z.array(z.string().url('each origin must be a URL'))),
  /** Size of the PostgreSQL connection pool of one API process. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
});

export type TConfig = z.infer<typeof ZEnvironment> & {
  /** Absolute path of DATA_DIR. */
  dataDir: string;
};

export class ConfigError extends Error {}

/**
 * Reads and validates the environment once. A bad or missing value throws a ConfigError whose
 * message is one line naming the variable and what is wrong with it.
 */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): TConfig => {
  const withoutEmpty = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = ZEnvironment.safeParse(withoutEmpty);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = issue?.path[0] ?? 'environment';
    throw new ConfigError(
      `Invalid configuration: ${String(variable)} ${issue?.message ?? 'is invalid'}`,
    );
  }
  const config = result.data;
  return {
    ...config,
    dataDir: isAbsolute(config.DATA_DIR) ? config.DATA_DIR : join(REPO_ROOT, config.DATA_DIR),
  };
};
