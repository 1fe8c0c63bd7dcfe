import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sharedRedis } from '../edge/limiter';
import { webConfig } from '../env';

/**
 * The server's record of each staff session, so a session can end before its cookie does: sign
 * out ends it, so a copied cookie replayed afterwards is a stranger's; an idle session ends after
 * STAFF_SESSION_IDLE_SECONDS (an hour); "sign out everywhere" ends every session of a key. Records are in Redis
 * when REDIS_URL is set (every instance of the site sees them), else in this process's memory (a
 * restart signs everyone out). Stored by the SHA-256 of the session id and of the key: the record
 * holds nothing that signs anyone in. A small store of ours: iron-session, which seals the cookie,
 * is stateless by design and has none.
 */

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

type TSessionStore = {
  create(keyDigest: string, lifetimeSeconds: number): Promise<string>;
  /** Whether the session is alive for that key; if so its idle time starts again. */
  touch(sessionId: string, keyDigest: string): Promise<boolean>;
  end(sessionId: string): Promise<void>;
  endAll(keyDigest: string): Promise<void>;
};

const newSessionId = (): string => randomBytes(32).toString('base64url');

class MemorySessionStore implements TSessionStore {
  private readonly sessions = new Map<string, { keyDigest: string; idleUntil: number }>();

  constructor(private readonly idleSeconds: number) {}

  async create(keyDigest: string): Promise<string> {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (session.idleUntil <= now) {
        this.sessions.delete(id);
      }
    }
    const sessionId = newSessionId();
    this.sessions.set(digest(sessionId), {
      keyDigest,
      idleUntil: now + this.idleSeconds * 1000,
    });
    return sessionId;
  }

  async touch(sessionId: string, keyDigest: string): Promise<boolean> {
    const id = digest(sessionId);
    const session = this.sessions.get(id);
    if (!session || session.keyDigest !== keyDigest || session.idleUntil <= Date.now()) {
      this.sessions.delete(id);
      return false;
    }
    session.idleUntil = Date.now() + this.idleSeconds * 1000;
    return true;
  }

  async end(sessionId: string): Promise<void> {
    this.sessions.delete(digest(sessionId));
  }

  async endAll(keyDigest: string): Promise<void> {
    for (const [id, session] of this.sessions) {
      if (session.keyDigest === keyDigest) {
        this.sessions.delete(id);
      }
    }
  }
}

class RedisSessionStore implements TSessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly idleSeconds: number,
  ) {}

  private sessionKey = (sessionId: string) => `${this.prefix}session:${digest(sessionId)}`;
  private keySessions = (keyDigest: string) => `${this.prefix}sessions-of:${keyDigest}`;

  async create(keyDigest: string, lifetimeSeconds: number): Promise<string> {
    const sessionId = newSessionId();
    const members = this.keySessions(keyDigest);
    await this.redis
      .multi()
      .set(this.sessionKey(sessionId), keyDigest, 'EX', this.idleSeconds)
      .sadd(members, this.sessionKey(sessionId))
      .expire(members, lifetimeSeconds)
      .exec();
    return sessionId;
  }

  async touch(sessionId: string, keyDigest: string): Promise<boolean> {
    const stored = await this.redis.getex(this.sessionKey(sessionId), 'EX', this.idleSeconds);
    return stored === keyDigest;
  }

  async end(sessionId: string): Promise<void> {
    await this.redis.del(this.sessionKey(sessionId));
  }

  async endAll(keyDigest: string): Promise<void> {
    const members = this.keySessions(keyDigest);
    const sessions = await this.redis.smembers(members);
    await this.redis.del(members, ...sessions);
  }
}

let store: TSessionStore | undefined;

const sessionStore = (): TSessionStore => {
  if (!store) {
    const config = webConfig();
    const redis = sharedRedis(config);
    store = redis
      ? new RedisSessionStore(redis, config.redisKeyPrefix, config.staffSessionIdleSeconds)
      : new MemorySessionStore(config.staffSessionIdleSeconds);
  }
  return store;
};

export const keyDigestOf = (apiKey: string): string => digest(apiKey);

export const createSessionRecord = (apiKey: string, lifetimeSeconds: number) =>
  sessionStore().create(keyDigestOf(apiKey), lifetimeSeconds);

/** Alive, for this key? A store that cannot answer says no: sign in again rather than guess. */
export const touchSessionRecord = (sessionId: string, apiKey: string): Promise<boolean> =>
  sessionStore()
    .touch(sessionId, keyDigestOf(apiKey))
    .catch(() => false);

export const endSessionRecord = (sessionId: string) => sessionStore().end(sessionId);

export const endEverySessionOf = (apiKey: string) => sessionStore().endAll(keyDigestOf(apiKey));
