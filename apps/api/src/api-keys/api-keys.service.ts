import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { apiKeyEnvironment, hashApiKey } from '@pets/store/api-key-format';
import { CONFIG } from '../app.tokens';
import { NegativeCache } from '../cache/negative-cache';
import { SwrCache, type TSwrCacheSettings } from '../cache/swr-cache';
import type { TConfig } from '../config';
import { AppError } from '../core/app-error';
import type { TIdentity } from './caller';
import { API_KEY_LOOKUP, type TApiKeyLookup } from './caller';
import { SessionActivity } from './session-activity';

export type TKeyCacheSettings = TSwrCacheSettings & {
  /** How long a hash that no stored key has is remembered as unknown (the negative cache). */
  unknownTtlMs: number;
  /** At most this many unknown hashes are remembered, the least recently presented evicted first. */
  unknownMaxEntries: number;
  /**
   * Wall-clock milliseconds (`Date.now()`), against which a key's expiry and the end of a roll's
   * overlap are checked. Tests move it together with `now`.
   */
  wallNow: () => number;
};

/**
 * A cached answer is used without a database round trip for 2 s, and while a refresh runs in the
 * background for at most 4.5 s: a revoked key stops working within 5 seconds. Unknown hashes are
 * remembered apart, for 60 s (at most 10,000 of them, least recently presented evicted first), so
 * that a flood of made-up keys neither costs round trips nor evicts known keys. A new key still
 * works at once: its hash (of 190 random bits) was never presented before the key existed. Tests
 * set a clock of their own instead of waiting.
 */
export const DEFAULT_KEY_CACHE_SETTINGS: TKeyCacheSettings = {
  freshMs: 2_000,
  maxAgeMs: 4_500,
  maxEntries: 10_000,
  unknownTtlMs: 60_000,
  unknownMaxEntries: 10_000,
  now: () => performance.now(),
  wallNow: () => Date.now(),
};

export const KEY_CACHE_SETTINGS = Symbol('KEY_CACHE_SETTINGS');

/**
 * A stored key as the cache keeps it, built once per load, not per request: its identity, and when
 * it stops working (`endsAt`, wall-clock ms: its expiry, or the end of a rolled secret's overlap;
 * Infinity when neither) with the refusal it earns then. `hash` is the stored hash the presented
 * one matched: the current secret's, or the previous one's after a roll.
 */
type TKnownKey = {
  hash: string;
  isRevoked: boolean;
  endsAt: number;
  ended: TIdentity;
  identity: TIdentity;
};

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
 * Anything that is not a well-formed key of this environment is refused without a lookup, and a
 * hash found unknown is not looked up again for `unknownTtlMs` (NegativeCache).
 */
@Injectable()
export class ApiKeysService {
  private readonly cache: SwrCache<string, TKnownKey | null>;
  private readonly unknown: NegativeCache<string>;
  private readonly wallNow: () => number;

  constructor(
    @Inject(API_KEY_LOOKUP) lookup: TApiKeyLookup,
    @Inject(KEY_CACHE_SETTINGS) settings: TKeyCacheSettings,
    @Inject(CONFIG) private readonly config: TConfig,
    private readonly activity: SessionActivity,
  ) {
    this.wallNow = settings.wallNow;
    this.unknown = new NegativeCache({
      ttlMs: settings.unknownTtlMs,
      maxEntries: settings.unknownMaxEntries,
      now: settings.now,
    });
    this.cache = new SwrCache<string, TKnownKey | null>(
      async (hash): Promise<TKnownKey | null> => {
        const stored = await lookup(hash);
        if (stored === null) {
          this.unknown.add(hash);
          return null;
        }
        const { hash: current, revokedAt, previousHash, previousHashExpiresAt, ...caller } = stored;
        const isPrevious = previousHash !== null && sameHash(previousHash, hash);
        const expiresAt = caller.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
        const overlapEndsAt = isPrevious
          ? (previousHashExpiresAt?.getTime() ?? Number.NEGATIVE_INFINITY)
          : Number.POSITIVE_INFINITY;
        return {
          hash: isPrevious ? previousHash : current,
          isRevoked: revokedAt !== null,
          endsAt: Math.min(expiresAt, overlapEndsAt),
          ended: overlapEndsAt < expiresAt ? ROLLED_KEY : EXPIRED_KEY,
          identity: { caller, error: null },
        };
      },
      settings,
      // Unknown hashes live in the negative cache only: they never take a known key's place.
      (known) => known !== null,
    );
  }

  /**
   * What an Authorization header value presents, with no lookup: the SHA-256 (hex) of a
   * well-formed key this environment takes (production: live and test; staging: test), to
   * `verify`; else the 401 to answer.
   */
  examine(authorization: string | undefined): TIdentity | string {
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
    return this.examineKey(key);
  }

  /**
   * The same for a key given alone (the site's `Pets-First-Party-Key`): its SHA-256 when it is a
   * well-formed key of this environment, else the 401 it would earn.
   */
  examineKey(key: string): TIdentity | string {
    const environment = apiKeyEnvironment(key);
    if (environment === null) {
      return unauthorized('Invalid API key.');
    }
    // The prefix is the key's mode: production takes live keys and test keys (which `permit` keeps
    // to reads there); staging takes test keys only.
    if (environment === 'production' && this.config.APP_ENV !== 'production') {
      return unauthorized(
        `This is a live key (pets_live_); this is the ${this.config.APP_ENV} environment, which takes test keys (pets_test_).`,
      );
    }
    return hashApiKey(key);
  }

  /** The identity the key of this hash proves: from the caches, or once it has been looked up. */
  verify(hash: string): TIdentity | Promise<TIdentity> {
    if (this.unknown.has(hash)) {
      return INVALID_KEY;
    }
    const known = this.cache.get(hash);
    return known instanceof Promise
      ? known.then((loaded) => this.judge(loaded, hash))
      : this.judge(known, hash);
  }

  /**
   * Forgets what this process cached about these hashes (a key revoked or rolled here, a session
   * ended here): the next request looks it up again, so the change applies at once in this
   * process, and within the cache's 5 s in the others.
   */
  evict(...hashes: readonly (string | null | undefined)[]): void {
    for (const hash of hashes) {
      if (hash) {
        this.cache.delete(hash);
        this.unknown.delete(hash);
      }
    }
  }

  /**
   * The identity of a valid key that the cache holds fresh, or null: known without a lookup or any
   * background refresh, so nothing is spent on the caller before its address's budget is checked.
   */
  verifyCached(hash: string): TIdentity | null {
    if (this.unknown.has(hash)) {
      return null;
    }
    const known = this.cache.peekFresh(hash);
    if (!known) {
      return null;
    }
    const identity = this.judge(known, hash);
    return identity.caller ? identity : null;
  }

  /** A number compared per request, and the clock read only for a key that ends. */
  private verdict(known: TKnownKey | null, hash: string): TIdentity {
    if (known === null || !sameHash(known.hash, hash)) {
      return INVALID_KEY;
    }
    if (known.isRevoked) {
      return REVOKED_KEY;
    }
    if (known.endsAt !== Number.POSITIVE_INFINITY && this.wallNow() >= known.endsAt) {
      return known.ended;
    }
    return known.identity;
  }

  // Issue 27 slice 2 (sessions): a session credential is also refused past its session's absolute
  // end or idle timeout (the joined account_sessions row, not api_keys.expires_at), or when its
  // person was deactivated; a valid use is remembered for the idle clock (SessionActivity).
  // Ordinary keys go through `verdict` alone.
  private judge(known: TKnownKey | null, hash: string): TIdentity {
    const identity = this.verdict(known, hash);
    const caller = identity.caller;
    if (caller === null || caller.kind !== 'session') {
      return identity;
    }
    if (!caller.isAccountActive) {
      return unauthorized('This account has been deactivated.');
    }
    const session = caller.session;
    if (session === null) {
      return INVALID_KEY;
    }
    const now = this.wallNow();
    if (session.expiresAtMs <= now) {
      return unauthorized('This session has expired: sign in again.');
    }
    const lastSeen = Math.max(session.lastSeenAtMs, this.activity.lastSeen(session.id));
    if (lastSeen + session.idleSeconds * 1000 <= now) {
      return unauthorized('This session ended after being unused: sign in again.');
    }
    this.activity.seen(session.id, now);
    return identity;
  }
}

const INVALID_KEY = unauthorized('Invalid API key.');
const REVOKED_KEY = unauthorized('This API key has been revoked.');
const EXPIRED_KEY = unauthorized('This API key has expired.');
const ROLLED_KEY = unauthorized('This API key was rolled; use its replacement.');

const sameHash = (stored: string, presented: string): boolean => {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};
