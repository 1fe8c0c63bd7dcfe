import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../app.tokens';
import type { TIdentity } from '../auth/identity';
import { SwrCache, type TSwrCacheSettings } from '../cache/swr-cache';
import type { TConfig } from '../config';
import { AppError } from '../http/app-error';
import { apiKeyEnvironment, hashApiKey } from './api-key-format';
import { API_KEY_LOOKUP, type TApiKeyLookup } from './caller';

/**
 * A cached answer is used without a database round trip for 2 s, and while a refresh runs in the
 * background for at most 4.5 s: a revoked key stops working within 5 seconds. Unknown hashes are
 * cached too (a flood of made-up keys costs no round trip), and a new key works at once since its
 * hash was never asked for. Tests set a clock of their own instead of waiting.
 */
export const DEFAULT_KEY_CACHE_SETTINGS: TSwrCacheSettings = {
  freshMs: 2_000,
  maxAgeMs: 4_500,
  maxEntries: 10_000,
  now: () => performance.now(),
};

export const KEY_CACHE_SETTINGS = Symbol('KEY_CACHE_SETTINGS');

/** A stored key as the cache keeps it: its identity is built once per load, not per request. */
type TKnownKey = { hash: string; isRevoked: boolean; identity: TIdentity };

const unauthorized = (message: string): TIdentity => ({
  caller: null,
  error: new AppError('unauthorized', message, undefined, {
    'WWW-Authenticate': 'Bearer realm="pets"',
  }),
});

/**
 * Verifies bearer keys. A key is looked up by its SHA-256 hash (the database never sees or
 * stores the key), and the hashes are compared in constant time, so timing reveals nothing about
 * the key. Answers are cached in process (SwrCache): the steady state costs no database round trip.
 */
@Injectable()
export class ApiKeysService {
  private readonly cache: SwrCache<string, TKnownKey | null>;

  constructor(
    @Inject(API_KEY_LOOKUP) lookup: TApiKeyLookup,
    @Inject(KEY_CACHE_SETTINGS) settings: TSwrCacheSettings,
    @Inject(CONFIG) private readonly config: TConfig,
  ) {
    this.cache = new SwrCache(async (hash) => {
      const stored = await lookup(hash);
      if (stored === null) {
        return null;
      }
      const { hash: storedHash, revokedAt, ...caller } = stored;
      return { hash: storedHash, isRevoked: revokedAt !== null, identity: { caller, error: null } };
    }, settings);
  }

  /**
   * The identity an Authorization header value proves: synchronously when the key's answer is
   * cached (the request then awaits nothing here), else once the lookup is done.
   */
  authenticate(authorization: string | undefined): TIdentity | Promise<TIdentity> {
    if (authorization === undefined) {
      return unauthorized('Missing API key: send it as Authorization: Bearer <key>.');
    }
    const [scheme, ...rest] = authorization.trim().split(/\s+/);
    if (scheme?.toLowerCase() !== 'bearer') {
      return unauthorized('The Authorization header must use the Bearer scheme: Bearer <key>.');
    }
    const key = rest.join(' ');
    if (key === '') {
      return unauthorized('The bearer token is empty: send Authorization: Bearer <key>.');
    }
    const environment = apiKeyEnvironment(key);
    if (environment === null) {
      return unauthorized('Invalid API key.');
    }
    if (environment !== this.config.APP_ENV) {
      return unauthorized(
        `This is a ${environment} key; this is the ${this.config.APP_ENV} environment.`,
      );
    }
    const hash = hashApiKey(key);
    const known = this.cache.get(hash);
    return known instanceof Promise
      ? known.then((loaded) => verdict(loaded, hash))
      : verdict(known, hash);
  }
}

const verdict = (known: TKnownKey | null, hash: string): TIdentity => {
  if (known === null || !sameHash(known.hash, hash)) {
    return unauthorized('Invalid API key.');
  }
  if (known.isRevoked) {
    return unauthorized('This API key has been revoked.');
  }
  return known.identity;
};

const sameHash = (stored: string, presented: string): boolean => {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};
