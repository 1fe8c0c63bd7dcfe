import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../app.tokens';
import type { TConfig } from '../config';
import { AppError } from '../http/app-error';
import { apiKeyEnvironment, hashApiKey } from './api-key-format';
import { API_KEY_LOOKUP, type TApiKeyLookup, type TCaller, type TStoredApiKey } from './caller';

/** A cached answer is used without a database round trip for this long... */
const FRESH_MS = 2_000;
/** ...and, while a refresh runs in the background, for at most this long: a revoked key stops
 * working within 5 seconds. */
const MAX_AGE_MS = 4_500;
const MAX_ENTRIES = 10_000;

type TEntry = { key: TStoredApiKey | null; fetchedAt: number; refreshing: boolean };

const unauthorized = (message: string) =>
  new AppError('unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="pets"' });

/**
 * Verifies bearer keys. A key is looked up by its SHA-256 hash (the database never sees or
 * stores the key), and the hashes are compared in constant time, so timing reveals nothing about
 * the key. Answers are cached in process: the steady state costs no database round trip, a new key
 * works at once (unknown hashes are not cached for long), a revoked key stops within 5 seconds.
 */
@Injectable()
export class ApiKeysService {
  private readonly cache = new Map<string, TEntry>();
  private readonly inFlight = new Map<string, Promise<TStoredApiKey | null>>();

  constructor(
    @Inject(API_KEY_LOOKUP) private readonly lookup: TApiKeyLookup,
    @Inject(CONFIG) private readonly config: TConfig,
  ) {}

  private readonly now = (): number => performance.now();

  /** The caller for an Authorization header value, or the 401 error to answer with. */
  async authenticate(authorization: string | undefined): Promise<TCaller | AppError> {
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
    const stored = await this.find(hash);
    if (stored === null || !sameHash(stored.hash, hash)) {
      return unauthorized('Invalid API key.');
    }
    if (stored.revokedAt !== null) {
      return unauthorized('This API key has been revoked.');
    }
    const { hash: _hash, revokedAt: _revokedAt, ...caller } = stored;
    return caller;
  }

  private async find(hash: string): Promise<TStoredApiKey | null> {
    const entry = this.cache.get(hash);
    const age = entry ? this.now() - entry.fetchedAt : Number.POSITIVE_INFINITY;
    if (entry && age < FRESH_MS) {
      return entry.key;
    }
    if (entry && age < MAX_AGE_MS) {
      this.refreshInBackground(hash, entry);
      return entry.key;
    }
    return this.fetch(hash);
  }

  private refreshInBackground(hash: string, entry: TEntry): void {
    if (entry.refreshing) {
      return;
    }
    entry.refreshing = true;
    this.fetch(hash).catch(() => {
      // The next request past MAX_AGE_MS fetches again and reports the failure.
      entry.refreshing = false;
    });
  }

  /** One database lookup per hash at a time: a burst on a cold key shares it. */
  private fetch(hash: string): Promise<TStoredApiKey | null> {
    const pending = this.inFlight.get(hash);
    if (pending) {
      return pending;
    }
    const lookup = this.lookupAndCache(hash).finally(() => this.inFlight.delete(hash));
    this.inFlight.set(hash, lookup);
    return lookup;
  }

  private async lookupAndCache(hash: string): Promise<TStoredApiKey | null> {
    const key = await this.lookup(hash);
    this.cache.delete(hash);
    if (this.cache.size >= MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) {
        this.cache.delete(oldest);
      }
    }
    this.cache.set(hash, { key, fetchedAt: this.now(), refreshing: false });
    return key;
  }
}

const sameHash = (stored: string, presented: string): boolean => {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};
