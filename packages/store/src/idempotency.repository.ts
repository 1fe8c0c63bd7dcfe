import { prepare, type TQueryable } from '@pets/db';
import { seal, sealingKey, unseal } from './sealed';

/**
 * The idempotency_keys table: one row per (API key, operation, Idempotency-Key). A row without a
 * response is a request in progress; its `expires_at` is then the end of the claim's lease, and
 * once the response is stored, the end of the replay window. Every statement is prepared once
 * (a request sends ready SQL) and finds its row through the unique index or the primary key;
 * only the sweeper reads by `expires_at`, through its own index, a bounded batch at a time.
 */

/** What a retry gets back: the first response, exactly. */
export type TStoredResponse = {
  status: number;
  /** The headers that matter (Content-Type, Location), by their canonical names. */
  headers: Record<string, string>;
  /** The body as it was sent: JSON text. */
  body: string;
};

export type TIdempotencyScope = {
  apiKeyId: bigint;
  /** The contract's operation name: createPet, placeOrder, ... */
  operation: string;
  key: string;
};

export type TIdempotencyEntry = {
  id: string;
  requestHash: string;
  expiresAt: Date;
  /** null while the first request is in progress. */
  response: TStoredResponse | null;
};

type TScopeParams = { apiKeyId: string; operation: string; key: string };

/**
 * Stored answers are encrypted at rest (sealed.ts): one may hold a webhook endpoint's signing
 * secret (createWebhookEndpoint, rotateWebhookSecret) or an adopter's details (placeOrder). A
 * body stored before, plain JSON, is read as it is.
 */
const ANSWERS_KEY_NAME = 'idempotent-answers';
const SEALED_PREFIX = 'sealed:';

/**
 * Claims the key: inserts an in-progress row, or takes over one that has expired (a completed
 * entry past its window, or the claim of a request that never finished). The unique index makes
 * PostgreSQL serialise concurrent claims: exactly one gets a row back. A live row is left alone.
 */
const CLAIM_STATEMENT = prepare(
  (db, p: TScopeParams & { requestHash: string; now: Date; leaseEnd: Date }) =>
    db
      .insertInto('idempotency_keys')
      .values({
        api_key_id: p.apiKeyId,
        operation: p.operation,
        key: p.key,
        request_hash: p.requestHash,
        created_at: p.now,
        expires_at: p.leaseEnd,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['api_key_id', 'operation', 'key'])
          .doUpdateSet({
            request_hash: p.requestHash,
            response_status: null,
            response_headers: null,
            response_body: null,
            created_at: p.now,
            expires_at: p.leaseEnd,
          })
          .where('idempotency_keys.expires_at', '<=', p.now),
      )
      .returning(['id']),
);

const FIND_STATEMENT = prepare((db, p: TScopeParams) =>
  db
    .selectFrom('idempotency_keys')
    .select([
      'id',
      'request_hash as requestHash',
      'response_status as responseStatus',
      'response_headers as responseHeaders',
      'response_body as responseBody',
      'expires_at as expiresAt',
    ])
    .where('api_key_id', '=', p.apiKeyId)
    .where('operation', '=', p.operation)
    .where('key', '=', p.key),
);

/** Stores the response of a claim still in progress (a claim taken over meanwhile is left alone). */
const COMPLETE_STATEMENT = prepare(
  (db, p: { id: string; status: number; headers: string; body: string; expiresAt: Date }) =>
    db
      .updateTable('idempotency_keys')
      .set({
        response_status: p.status,
        response_headers: p.headers,
        response_body: p.body,
        expires_at: p.expiresAt,
      })
      .where('id', '=', p.id)
      .where('response_status', 'is', null),
);

/** Gives the key back after a failure that is not stored (a 5xx): a retry runs the operation. */
const RELEASE_STATEMENT = prepare((db, p: { id: string }) =>
  db.deleteFrom('idempotency_keys').where('id', '=', p.id).where('response_status', 'is', null),
);

/**
 * Gives back a claim whose INSERT failed for a database fault: the statement may still
 * have been committed (a frozen server runs it once resumed, after the client gave up), leaving a
 * claim nobody holds. Found by its scope and its own `created_at`, still without a response.
 */
const RELEASE_CLAIM_STATEMENT = prepare((db, p: TScopeParams & { createdAt: Date }) =>
  db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', p.apiKeyId)
    .where('operation', '=', p.operation)
    .where('key', '=', p.key)
    .where('created_at', '=', p.createdAt)
    .where('response_status', 'is', null),
);

/**
 * Deletes at most `limit` expired rows, oldest first, found through idempotency_keys_expires_at_idx;
 * rows another instance is deleting at the same moment are skipped, not waited for.
 */
const SWEEP_STATEMENT = prepare((db, p: { now: Date; limit: number }) =>
  db
    .deleteFrom('idempotency_keys')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('idempotency_keys')
        .select('id')
        .where('expires_at', '<', p.now)
        .orderBy('expires_at')
        .limit(p.limit)
        .forUpdate()
        .skipLocked(),
    ),
);

/** The SQL and `$n` values of the lookup and of one sweep batch: for EXPLAIN in tests and reviews. */
export const idempotencyStatements = (scope: TIdempotencyScope, now: Date, limit: number) => {
  const withValues = <TParams extends Record<string, unknown>>(
    statement: { sql: string; parameterNames: readonly (string | null)[] },
    params: TParams,
  ) => ({
    sql: statement.sql,
    values: statement.parameterNames.map((name) => (name === null ? null : params[name])),
  });
  return {
    find: withValues(FIND_STATEMENT, scopeParams(scope)),
    sweep: withValues(SWEEP_STATEMENT, { now, limit }),
  };
};

type TEntryRow = {
  id: string;
  requestHash: string;
  responseStatus: number | null;
  responseHeaders: unknown;
  responseBody: string | null;
  expiresAt: Date;
};

const toEntry = (row: TEntryRow, body: string): TIdempotencyEntry => ({
  id: row.id,
  requestHash: row.requestHash,
  expiresAt: row.expiresAt,
  response:
    row.responseStatus === null
      ? null
      : {
          status: row.responseStatus,
          headers: (row.responseHeaders ?? {}) as Record<string, string>,
          body,
        },
});

const scopeParams = ({ apiKeyId, operation, key }: TIdempotencyScope): TScopeParams => ({
  apiKeyId: String(apiKeyId),
  operation,
  key,
});

export class IdempotencyRepository {
  /** The key that encrypts stored answers, read once. */
  private readonly key: () => Promise<Buffer>;

  constructor(private readonly db: TQueryable) {
    this.key = sealingKey(db, ANSWERS_KEY_NAME);
  }

  /** The id of the claimed row, or null when a live entry holds the key. */
  async claim(
    scope: TIdempotencyScope,
    requestHash: string,
    now: Date,
    leaseEnd: Date,
  ): Promise<string | null> {
    const { rows } = await CLAIM_STATEMENT.execute(this.db, {
      ...scopeParams(scope),
      requestHash,
      now,
      leaseEnd,
    });
    return rows[0]?.id ?? null;
  }

  async find(scope: TIdempotencyScope): Promise<TIdempotencyEntry | null> {
    const { rows } = await FIND_STATEMENT.execute(this.db, scopeParams(scope));
    const row = rows[0] as TEntryRow | undefined;
    if (!row) {
      return null;
    }
    const stored = row.responseBody ?? '';
    const body = stored.startsWith(SEALED_PREFIX)
      ? unseal(await this.key(), stored.slice(SEALED_PREFIX.length))
      : stored;
    return toEntry(row, body);
  }

  async complete(id: string, response: TStoredResponse, expiresAt: Date): Promise<void> {
    await COMPLETE_STATEMENT.execute(this.db, {
      id,
      status: response.status,
      headers: JSON.stringify(response.headers),
      body: SEALED_PREFIX + seal(await this.key(), response.body),
      expiresAt,
    });
  }

  async release(id: string): Promise<void> {
    await RELEASE_STATEMENT.execute(this.db, { id });
  }

  /** Gives back the claim made at `createdAt` for this scope, if it exists and has no response. */
  async releaseClaim(scope: TIdempotencyScope, createdAt: Date): Promise<void> {
    await RELEASE_CLAIM_STATEMENT.execute(this.db, { ...scopeParams(scope), createdAt });
  }

  /** How many expired rows one bounded delete removed. */
  async sweep(now: Date, limit: number): Promise<number> {
    const result = await SWEEP_STATEMENT.execute(this.db, { now, limit });
    return Number(result.rowCount ?? 0);
  }
}
