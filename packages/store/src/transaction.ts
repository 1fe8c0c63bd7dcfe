import { QUERY_READ_TIMEOUT } from '@pets/db';
import type { Pool, PoolClient } from 'pg';

/**
 * A checked-out client's own `'error'` event (its connection lost: the backend killed, the server
 * stopped): pg-pool listens only while a client is idle, and an unheard `'error'` ends the process.
 * The statement in flight fails by itself with "Connection terminated unexpectedly" (a `503` for
 * the request, apps/api/src/http/database-faults.ts), so the event needs nothing more than being heard.
 */
const onCheckedOutClientError = (): void => undefined;

/**
 * Runs `work` in one transaction on a client of its own, committed when it resolves and rolled
 * back when it throws. Inside, use only that client: on the embedded database a statement on
 * another connection would wait for this transaction to end (prisma/README.md). A client whose
 * query outlived the pool's query timeout (a hung server), or whose rollback fails too, is
 * destroyed rather than returned to the pool, with no rollback to wait for. While checked out, the client
 * has an `'error'` listener, so a connection lost mid-transaction fails the request, not the process.
 */
/** A query outlived the pool's query timeout (packages/db/src/client.ts). */
const isClientTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === QUERY_READ_TIMEOUT;

export const withTransaction = async <T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> => {
  const client = await pool.connect();
  client.on('error', onCheckedOutClientError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.off('error', onCheckedOutClientError);
    client.release();
    return result;
  } catch (error) {
    if (isClientTimeout(error)) {
      // The server did not answer in time (hung, or gone): a ROLLBACK would wait as long again.
      // The connection is destroyed instead, and the server drops the transaction with it.
      client.release(error as Error);
      throw error;
    }
    try {
      await client.query('ROLLBACK');
      client.off('error', onCheckedOutClientError);
      client.release();
    } catch (rollbackError) {
      // Destroyed, not pooled: the listener stays, for the socket's late events.
      client.release(rollbackError as Error);
    }
    throw error;
  }
};

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

const sqlStateOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

/**
 * A unique index refused the row (e.g. a second open order for one animal); with `constraint`,
 * only that index (a transaction that writes other rows too must not read their refusals as its own).
 */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean =>
  sqlStateOf(error) === UNIQUE_VIOLATION &&
  (constraint === undefined || (error as { constraint?: unknown }).constraint === constraint);

/** A foreign key refused the row (e.g. a categoryId that names no category). */
export const isForeignKeyViolation = (error: unknown): boolean =>
  sqlStateOf(error) === FOREIGN_KEY_VIOLATION;
