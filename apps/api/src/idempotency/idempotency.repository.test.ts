import { IdempotencyRepository, idempotencyStatements } from '@pets/store/idempotency.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/test-database';

/**
 * The store's statements on a real database: the sweep deletes a bounded batch of expired rows,
 * oldest first, and neither it nor the lookup scans the table (EXPLAIN on 50,000 rows).
 */

const { pool, create, drop } = testDatabase();
let apiKeyId: bigint;
const NOW = new Date('2026-11-23T12:00:00Z');
const HOUR = 3_600_000;

type TPlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: TPlanNode[] };

/** Every node of a plan, with its index: `Index Scan (idempotency_keys_expires_at_idx)`. */
const planOf = async (statement: { sql: string; values: unknown[] }): Promise<string[]> => {
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: TPlanNode }] }>(
    `EXPLAIN (FORMAT JSON) ${statement.sql}`,
    statement.values,
  );
  const names: string[] = [];
  const walk = (node: TPlanNode) => {
    names.push(
      node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'],
    );
    for (const child of node.Plans ?? []) {
      walk(child);
    }
  };
  walk(rows[0]?.['QUERY PLAN'][0].Plan as TPlanNode);
  return names;
};

beforeAll(async () => {
  await create();
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO api_keys (name, environment, plan, hash, start)
     VALUES ('retries', 'production', 'pro', repeat('a', 64), 'pets_live_Rtry') RETURNING id`,
  );
  apiKeyId = BigInt(rows[0]?.id ?? 0);
  // 50,000 entries, one per minute before and after NOW: the 20 oldest have expired.
  await pool.query(
    `INSERT INTO idempotency_keys
       (api_key_id, operation, key, request_hash, response_status, response_body, created_at, expires_at)
     SELECT $1, 'createPet', 'key-' || n, repeat('b', 64), 201, '{}',
            $2::timestamptz - interval '1 day', $2::timestamptz + (n - 21) * interval '1 minute'
     FROM generate_series(1, 50000) n`,
    [String(apiKeyId), NOW],
  );
  await pool.query('ANALYZE idempotency_keys');
});
afterAll(drop);

describe('the idempotency store', () => {
  it('finds an entry through the unique index and sweeps through the expiry index: no table scan', async () => {
    const statements = idempotencyStatements(
      { apiKeyId, operation: 'createPet', key: 'key-7' },
      NOW,
      1000,
    );
    const find = await planOf(statements.find);
    expect(find).toEqual(['Index Scan (idempotency_keys_api_key_id_operation_key_key)']);
    const sweep = await planOf(statements.sweep);
    expect(sweep).toContain('Index Scan (idempotency_keys_expires_at_idx)');
    expect(sweep.join(' ')).not.toMatch(/Seq Scan/);
  });

  it('sweeps at most a batch of expired rows, oldest first, and nothing live', async () => {
    const repository = new IdempotencyRepository(pool);
    const count = async () =>
      Number((await pool.query('SELECT count(*) FROM idempotency_keys')).rows[0]?.count);
    expect(await repository.sweep(NOW, 15)).toBe(15);
    const { rows } = await pool.query<{ key: string }>(
      'SELECT key FROM idempotency_keys WHERE expires_at < $1 ORDER BY expires_at',
      [NOW],
    );
    // Expired: key-1 to key-20 (key-21 expires exactly at NOW); the oldest 15 went first.
    expect(rows.map((row) => row.key)).toEqual(['key-16', 'key-17', 'key-18', 'key-19', 'key-20']);
    expect(await repository.sweep(NOW, 15)).toBe(5);
    expect(await repository.sweep(NOW, 15)).toBe(0);
    expect(await count()).toBe(50_000 - 20);
    expect(await repository.sweep(new Date(NOW.getTime() + HOUR), 1000)).toBe(60);
  });
});
