import type { TQueryable } from '@pets/db';
import { classifyDatabaseError, describeDatabaseFault } from '../../http/database-faults';
import type { TRateLimitStore } from '../../rate-limit/rate-limit.types';

/** How long the database may take to answer `SELECT 1` before readiness gives up on it. */
export const DATABASE_CHECK_TIMEOUT_MS = 2_000;

export type TDatabaseCheck =
  | { status: 'ok'; latencyMs: number }
  | { status: 'down'; reason: string };

/** `not_configured`: REDIS_URL is unset and limits live in this process on purpose. */
export type TRateLimitCheck = {
  status: 'ok' | 'degraded' | 'not_configured';
  backend: string;
};

export type TReadiness = {
  status: 'ok' | 'degraded';
  checks: { database: TDatabaseCheck & { status: 'ok' }; rateLimits: TRateLimitCheck };
};

class CheckTimeout extends Error {}

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CheckTimeout()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/**
 * Why the database check failed, in our own words: never a library's code (P2010, ECONNREFUSED)
 * or message, an address or a query.
 */
const reasonOf = (error: unknown): string => {
  if (error instanceof CheckTimeout) {
    return `the database did not answer within ${DATABASE_CHECK_TIMEOUT_MS / 1000} s`;
  }
  const found = classifyDatabaseError(error);
  return found?.kind === 'unavailable'
    ? describeDatabaseFault(found.fault)
    : 'the database check failed';
};

export const checkDatabase = async (db: TQueryable): Promise<TDatabaseCheck> => {
  const started = performance.now();
  try {
    await withTimeout(db.query('SELECT 1'), DATABASE_CHECK_TIMEOUT_MS);
    return { status: 'ok', latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (error) {
    return { status: 'down', reason: reasonOf(error) };
  }
};

/**
 * The rate-limit backend as the store sees it right now (no round trip): Redis connected, Redis
 * configured but unreachable (limits per process meanwhile), or no Redis configured at all.
 */
export const checkRateLimits = (
  store: Pick<TRateLimitStore, 'describe'>,
  isRedisConfigured: boolean,
): TRateLimitCheck => {
  const { backend, degraded } = store.describe();
  if (!isRedisConfigured) {
    return { status: 'not_configured', backend };
  }
  return { status: degraded ? 'degraded' : 'ok', backend };
};
