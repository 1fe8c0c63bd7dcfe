import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database';
import { OrdersRepository } from './orders.repository';

describe('OrdersRepository on a real database', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);
  const orders = new OrdersRepository(pool);
  let keyId: bigint;
  let otherKeyId: bigint;
  let ids: number[];

  beforeAll(async () => {
    const key = (name: string, hash: string) =>
      pool.query<{ id: string }>(
        `INSERT INTO api_keys (name, environment, plan, hash, start)
         VALUES ($1, 'production', 'free', $2, 'pets_live_abcd') RETURNING id`,
        [name, hash.padEnd(64, '0')],
      );
    keyId = BigInt((await key('mine', 'a')).rows[0]?.id ?? 0);
    otherKeyId = BigInt((await key('theirs', 'b')).rows[0]?.id ?? 0);
    const category = await pool.query<{ id: string }>(
      "INSERT INTO categories (name) VALUES ('Dogs') RETURNING id",
    );
    const pet = await pool.query<{ id: string }>(
      "INSERT INTO pets (name, category_id) VALUES ('Rex', $1) RETURNING id",
      [category.rows[0]?.id],
    );
    const placed = await pool.query<{ id: string }>(
      `INSERT INTO orders (pet_id, api_key_id, status)
       VALUES ($1, $2, 'placed'), ($1, $2, 'approved'), ($1, $2, 'placed'), ($1, $3, 'placed')
       RETURNING id`,
      [pet.rows[0]?.id, String(keyId), String(otherKeyId)],
    );
    ids = placed.rows.map((row) => Number(row.id));
  });

  it("lists one key's orders newest first, as the contract shapes them", async () => {
    const page = await orders.listForKey(keyId, { limit: 10 });
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((order) => order.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(page.items[0]).toEqual({
      id: ids[2],
      petId: expect.any(Number),
      status: 'placed',
      placedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('filters by status and pages below a cursor', async () => {
    const placed = await orders.listForKey(keyId, { limit: 1, status: 'placed' });
    expect(placed.items.map((order) => order.id)).toEqual([ids[2]]);
    expect(placed.nextCursor).not.toBeNull();
    const next = await orders.listForKey(keyId, {
      limit: 1,
      status: 'placed',
      before: BigInt(ids[2] ?? 0),
    });
    expect(next).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });
});
