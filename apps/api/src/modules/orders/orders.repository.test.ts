import {
  OrderAlreadyOpenError,
  OrdersRepository,
  PetNotAvailableError,
} from '@pets/store/orders.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/test-database';

describe('OrdersRepository on a real database', () => {
  const { pool, create, drop } = testDatabase();
  beforeAll(create);
  afterAll(drop);
  const orders = new OrdersRepository(pool);
  let keyId: bigint;
  let otherKeyId: bigint;
  let petIds: number[];
  const adopter = { name: 'Ada', email: 'ada@example.org' };

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
    const pets = await pool.query<{ id: string }>(
      `INSERT INTO pets (name, category_id) VALUES ('Rex', $1), ('Fido', $1), ('Bella', $1)
       RETURNING id`,
      [category.rows[0]?.id],
    );
    petIds = pets.rows.map((row) => Number(row.id));
  });

  const petStatus = async (id: number) =>
    (await pool.query<{ status: string }>('SELECT status FROM pets WHERE id = $1', [id])).rows[0]
      ?.status;

  const inReview = async (id: number) =>
    (
      await pool.query<{ count: number }>(
        'SELECT applications_in_review AS count FROM pets WHERE id = $1',
        [id],
      )
    ).rows[0]?.count;

  it('places an order and counts it on the animal, which stays available, with the first history entry', async () => {
    const order = await orders.place({
      petId: petIds[0] as number,
      adopter,
      apiKeyId: keyId,
      by: 'pets_live_abcd',
    });
    expect(order).toEqual({
      id: expect.any(Number),
      petId: petIds[0],
      status: 'placed',
      placedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      adopter,
      history: [{ at: expect.any(String), to: 'placed', by: 'pets_live_abcd' }],
    });
    expect(order.updatedAt).toBe(order.placedAt);
    expect(order.history[0]?.at).toBe(order.placedAt);
    expect(await petStatus(petIds[0] as number)).toBe('available');
    expect(await inReview(petIds[0] as number)).toBe(1);
    const again = await orders
      .place({ petId: petIds[0] as number, adopter, apiKeyId: otherKeyId, by: 'x' })
      .catch((error: unknown) => error);
    expect(again).toBeInstanceOf(OrderAlreadyOpenError);
    expect(await inReview(petIds[0] as number)).toBe(1);
    await expect(
      orders.place({ petId: 987_654, adopter, apiKeyId: keyId, by: 'x' }),
    ).rejects.toMatchObject({ kind: 'unknown-pet', petId: 987_654 });
  });

  it('refuses in the database itself a second open order per adopter, a second approved one per animal', async () => {
    const petId = petIds[1] as number;
    const insert = (status: string, email: string, key = keyId) =>
      pool.query(
        `INSERT INTO orders (pet_id, api_key_id, status, adopter_name, adopter_email)
         VALUES ($1, $2, $3::order_status, 'A', $4)`,
        [petId, String(key), status, email],
      );
    await insert('approved', 'a@example.org');
    await expect(insert('waitlisted', 'A@Example.org')).rejects.toMatchObject({
      code: '23505',
      constraint: 'orders_one_open_per_pet_adopter_key',
    });
    await expect(insert('completed', 'b@example.org')).rejects.toMatchObject({
      code: '23505',
      constraint: 'orders_one_approved_per_pet_key',
    });
    // Closed orders do not count, and other adopters may wait.
    await insert('cancelled', 'a@example.org');
    await insert('declined', 'a@example.org');
    await insert('waitlisted', 'c@example.org', otherKeyId);
    // The animal is still marked available here (typed in by hand): the index answers for it.
    expect(await petStatus(petId)).toBe('available');
    const refusal = await orders
      .place({ petId, adopter: { name: 'A', email: 'a@example.org' }, apiKeyId: keyId, by: 'x' })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OrderAlreadyOpenError);
    // ...and nothing of the refused attempt stayed: the count is as it was.
    expect(await inReview(petId)).toBe(0);
  });

  it('refuses an order for an animal that is not available', async () => {
    const petId = petIds[2] as number;
    await pool.query("UPDATE pets SET status = 'sold' WHERE id = $1", [petId]);
    const refusal = await orders
      .place({ petId, adopter, apiKeyId: keyId, by: 'x' })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PetNotAvailableError);
    expect(refusal).toMatchObject({ petId, status: 'sold' });
    await pool.query("UPDATE pets SET status = 'available' WHERE id = $1", [petId]);
  });

  it("lists one key's orders, or every order for staff, newest first, filtered and paged", async () => {
    const mine = await orders.list({ apiKeyId: keyId }, { limit: 10 });
    expect(mine.items.every((order) => order.id > 0)).toBe(true);
    const all = await orders.list({ apiKeyId: null }, { limit: 10 });
    expect(all.items.length).toBeGreaterThan(mine.items.length);
    expect(all.items.map((order) => order.id)).toEqual(
      [...all.items.map((order) => order.id)].sort((a, b) => b - a),
    );
    const forPet = await orders.list({ apiKeyId: null }, { limit: 1, petId: petIds[1] });
    expect(forPet.items.map((order) => order.petId)).toEqual([petIds[1]]);
    expect(forPet.nextCursor).not.toBeNull();
    const cancelled = await orders.list({ apiKeyId: keyId }, { limit: 10, status: 'cancelled' });
    expect(cancelled.items.map((order) => order.status)).toEqual(['cancelled']);
  });
});
