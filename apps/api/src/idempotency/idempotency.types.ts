/** How the idempotency store behaves; production values from the configuration and below. */
export type TIdempotencySettings = {
  /** How long a stored response is replayed (IDEMPOTENCY_KEY_TTL_HOURS, at least 24 h). */
  ttlMs: number;
  /**
   * How long a request in progress holds its key. Past it, a retry may run the operation again:
   * the holder is presumed dead (a crash between its write and storing its response).
   */
  leaseMs: number;
  /** How long a retry waits for the first request to finish before a 409 idempotency_key_in_use. */
  waitMs: number;
  /** How often each API process deletes expired entries, in bounded batches. */
  sweepIntervalMs: number;
  /** Rows per delete statement of the sweeper. */
  sweepBatchSize: number;
  /** Delete statements per sweep at most, so one sweep stays short whatever the backlog. */
  sweepMaxBatches: number;
  /**
   * How often a key left claimed by a database fault is given back again until it is:
   * within about this long of the database answering again, instead of the lease.
   */
  releaseRetryMs: number;
  /** The clock of the stored times (tests move it instead of waiting a day). */
  now: () => number;
};

export const DEFAULT_IDEMPOTENCY_SETTINGS: Omit<TIdempotencySettings, 'ttlMs'> = {
  leaseMs: 60_000,
  waitMs: 5_000,
  sweepIntervalMs: 5 * 60_000,
  sweepBatchSize: 1_000,
  sweepMaxBatches: 10,
  releaseRetryMs: 1_000,
  now: Date.now,
};

export const IDEMPOTENCY_SETTINGS = Symbol('IDEMPOTENCY_SETTINGS');
