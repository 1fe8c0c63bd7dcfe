import { API_PATH_PREFIX } from '@pets/contract';
import { z } from 'zod';

/**
 * The site's configuration, validated once (see env.ts). Pure: it takes the environment as an
 * argument so it can be tested; env.ts is the only module that reads `process.env`.
 */
const ZWebEnvironment = z.object({
  /** Base address of the v1 API, ending in /v1. */
  API_URL: z
    .string()
    .url('must be a URL such as http://localhost:4000/v1')
    .refine((value) => /^https?:/.test(value), { message: 'must start with http:// or https://' })
    .refine((value) => value.replace(/\/+$/, '').endsWith(API_PATH_PREFIX), {
      message: `must end with ${API_PATH_PREFIX}`,
    })
    .default('http://localhost:4000/v1'),
  /** The site's own API key. Server-only: it never reaches a browser. */
  WEB_API_KEY: z
    .string({ required_error: 'is required (the API key the site uses to call the API)' })
    .trim()
    .min(1, 'must not be empty'),
  /**
   * Encrypts the staff session cookie (iron-session): at least 32 characters, secret, the same
   * on every instance of the site. `pnpm start` generates one for local use (scripts/run-stack.mjs).
   */
  SESSION_SECRET: z
    .string({
      required_error:
        'is required (at least 32 random characters that encrypt the staff session cookie)',
    })
    .min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)'),
});

export type TWebConfig = {
  /** API_URL as configured, without a trailing slash. */
  apiUrl: string;
  /**
   * What the contract's client needs as `baseUrl`: API_URL without its /v1, since every path of
   * the contract already starts with /v1.
   */
  apiBaseUrl: string;
  apiKey: string;
  /** Encrypts the staff session cookie. Server-only, like the key. */
  sessionSecret: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const parseWebConfig = (environment: Record<string, string | undefined>): TWebConfig => {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = ZWebEnvironment.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${variable} ${issue?.message ?? 'is invalid'}`);
  }
  const apiUrl = result.data.API_URL.replace(/\/+$/, '');
  return {
    apiUrl,
    apiBaseUrl: apiUrl.slice(0, -API_PATH_PREFIX.length),
    apiKey: result.data.WEB_API_KEY,
    sessionSecret: result.data.SESSION_SECRET,
  };
};
