import type { TOrder } from '@pets/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestApi, type TTestApi } from '../../test/api-harness';
import { createPet, petStatus, placedOrder, placeOrder, transition } from './orders.test-support';

/**
 * Exactness under concurrency, on real PostgreSQL: two API instances (each its own application
 * and connection pool) on one database, requests sent to both at once. Nothing here waits or
 * sleeps: the requests race, and the database decides.
 */

let first: TTestApi;
let second: TTestApi;
let staff: string;
let categoryId: number;

beforeAll(async () => {
  first = await startTestApi();
  second = await startTestApi({ database: first.database });
  categoryId = Number((await first.prisma.category.create({ data: { name: 'Ferrets' } })).id);
  staff = await first.createKey({ name: 'store', role: 'staff' });
}, 60_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('on two API instances and one database', () => {
  it('50 simultaneous approvals of 50 orders for one animal: one 200, 49 409, one approved order, the rest waitlisted', async () => {
    const petId = await createPet(first, staff, categoryId, 'Bandit');
    const partner = await first.createKey({ name: 'shelter partner' });
    const orders: TOrder[] = [];
    for (let index = 0; index < 50; index += 1) {
      orders.push(
        await placedOrder(index % 2 === 0 ? first : second, partner, petId, {
          adopter: { name: `Adopter ${index}`, email: `adopter${index}@example.org` },
        }),
      );
    }
    // Every approval at once, alternating between the instances.
    const responses = await Promise.all(
      orders.map((order, index) =>
        transition(index % 2 === 0 ? first : second, staff, order.id, 'approve'),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const refusals = await Promise.all(
      responses.filter((response) => response.status === 409).map(errorBody),
    );
    // Every loser found the animal held: its order, waitlisted by the winner meanwhile, could
    // still be approved, but not while the animal is pending.
    expect(new Set(refusals.map((error) => error.code))).toEqual(new Set(['pet_not_available']));

    const winner = orders[statuses.indexOf(200)] as TOrder;
    const stored = await first.prisma.order.findMany({ where: { petId: BigInt(petId) } });
    expect(
      stored.filter((order) => order.status === 'approved').map((order) => Number(order.id)),
    ).toEqual([winner.id]);
    expect(stored.filter((order) => order.status === 'waitlisted')).toHaveLength(49);
    expect(await petStatus(first, petId)).toBe('pending');
    const pet = await first.prisma.pet.findUniqueOrThrow({ where: { id: BigInt(petId) } });
    expect(pet.applicationsInReview).toBe(49);
    // The database holds the line too: a second approved order for the animal is refused.
    await expect(
      first.prisma.order.updateMany({
        where: { petId: BigInt(petId), status: 'waitlisted' },
        data: { status: 'approved' },
      }),
    ).rejects.toThrow();
  });

  it('50 simultaneous placeOrder on one animal by one adopter: one 201, 49 409 order_already_open', async () => {
    const petId = await createPet(first, staff, categoryId, 'Rascal');
    const keys = await Promise.all(
      Array.from({ length: 10 }, (_, index) => first.createKey({ name: `partner ${index}` })),
    );
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        placeOrder(index % 2 === 0 ? first : second, keys[index % 10] as string, petId),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const refusals = await Promise.all(
      responses.filter((response) => response.status === 409).map(errorBody),
    );
    expect(new Set(refusals.map((error) => error.code))).toEqual(new Set(['order_already_open']));
    const pet = await first.prisma.pet.findUniqueOrThrow({ where: { id: BigInt(petId) } });
    expect(pet).toMatchObject({ status: 'available', applicationsInReview: 1 });
  });

  it('20 simultaneous complete and cancel of one approved order: exactly one wins, the animal follows it', async () => {
    const partner = await first.createKey({ name: 'racer' });
    const petId = await createPet(first, staff, categoryId, 'Zippy');
    const order = await placedOrder(first, partner, petId);
    expect((await transition(second, staff, order.id, 'approve')).status).toBe(200);
    const actions = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0 ? ('complete' as const) : ('cancel' as const),
    );
    const responses = await Promise.all(
      actions.map((action, index) =>
        transition(index % 4 < 2 ? first : second, staff, order.id, action),
      ),
    );
    const won = responses.flatMap((response, index) =>
      response.status === 200 ? [actions[index]] : [],
    );
    expect(won).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(19);
    const stored = await first.prisma.order.findUniqueOrThrow({ where: { id: BigInt(order.id) } });
    expect(stored.status).toBe(won[0] === 'complete' ? 'completed' : 'cancelled');
    // placed, approved, and the one change that won.
    expect(stored.history).toHaveLength(3);
    expect(await petStatus(first, petId)).toBe(won[0] === 'complete' ? 'sold' : 'available');
  });
});
