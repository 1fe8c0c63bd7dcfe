import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys look like `pets_live_<32 base62 characters>` (production) or `pets_test_<...>`
 * (staging): the prefix names the environment, the rest is 190 bits from the system's CSPRNG.
 * Only the SHA-256 of the whole key and a display start are stored; the key is shown once.
 */
export type TApiKeyEnvironment = 'production' | 'staging';

export const API_KEY_PREFIX: Record<TApiKeyEnvironment, string> = {
  production: 'pets_live_',
  staging: 'pets_test_',
};

const SECRET_LENGTH = 32;
const START_SECRET_CHARS = 4;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^pets_(live|test)_[0-9A-Za-z]{32}$/;

const randomBase62 = (length: number): string => {
  let out = '';
  while (out.length < length) {
    // Rejection sampling keeps every character uniform: 248 = 62 * 4.
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) {
        out += BASE62[byte % 62];
      }
    }
  }
  return out;
};

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The part of a key people may see in lists and logs: its prefix and first characters. */
export const apiKeyStart = (key: string): string =>
  key.slice(0, key.indexOf('_', 5) + 1 + START_SECRET_CHARS);

export type TGeneratedApiKey = { key: string; hash: string; start: string };

export const generateApiKey = (environment: TApiKeyEnvironment): TGeneratedApiKey => {
  const key = `${API_KEY_PREFIX[environment]}${randomBase62(SECRET_LENGTH)}`;
  return { key, hash: hashApiKey(key), start: apiKeyStart(key) };
};

/** The environment a well-formed key belongs to, or null for anything that is not a key. */
export const apiKeyEnvironment = (key: string): TApiKeyEnvironment | null => {
  const match = KEY_PATTERN.exec(key);
  if (!match) {
    return null;
  }
  return match[1] === 'live' ? 'production' : 'staging';
};
