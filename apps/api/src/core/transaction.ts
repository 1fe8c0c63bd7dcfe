import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a client of its own, committed when it resolves and rolled
 * back when it throws. Inside, use only that client: on the embedded database a statement on
 * another connection would wait for this transaction to end (prisma/README.md). A client whose
 * rollback fails too is destroyed rather than returned to the pool.
 */
export const withTransaction = async <T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
      client.release();
    } catch (rollbackError) {
      client.release(rollbackError as Error);
    }
    throw error;
  }
};

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

const sqlStateOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

/** A unique index refused the row (e.g. a second open order for one animal). */
export const isUniqueViolation = (error: unknown): boolean =>
  sqlStateOf(error) === UNIQUE_VIOLATION;

/** A foreign key refused the row (e.g. a categoryId that names no category). */
export const isForeignKeyViolation = (error: unknown): boolean =>
  sqlStateOf(error) === FOREIGN_KEY_VIOLATION;
