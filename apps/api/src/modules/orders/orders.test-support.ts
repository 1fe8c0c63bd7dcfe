import type { TOrder, TOrderAction, TPet } from '@pets/contract';
import { json, type TTestApi } from '../../test/api-harness';

/** Helpers of the orders tests: the API's own operations, over HTTP. */

export const ADOPTER = { name: 'Ada Lovelace', email: 'ada@example.org' };

export const createPet = async (api: TTestApi, key: string, categoryId: number, name: string) => {
  const response = await api.fetch('/v1/pets', json({ name, categoryId }, { key }));
  if (response.status !== 201) {
    throw new Error(`createPet answered ${response.status}`);
  }
  return ((await response.json()) as { id: number }).id;
};

export const placeOrder = (api: TTestApi, key: string, petId: number, extra: object = {}) =>
  api.fetch('/v1/store/orders', json({ petId, adopter: ADOPTER, ...extra }, { key }));

/** A placed order; `extra` may name another adopter (one open order per adopter and animal). */
export const placedOrder = async (
  api: TTestApi,
  key: string,
  petId: number,
  extra: object = {},
): Promise<TOrder> => {
  const response = await placeOrder(api, key, petId, extra);
  if (response.status !== 201) {
    throw new Error(`placeOrder answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as TOrder;
};

/** The decline the tests send when they name no reason of their own. */
export const DECLINE = { reason: 'not_a_match' } as const;

/** A transition; decline with `body` (DECLINE when none is given), the others without a body. */
export const transition = (
  api: TTestApi,
  key: string,
  orderId: number,
  action: TOrderAction,
  body?: object,
) =>
  action === 'decline' || body !== undefined
    ? api.fetch(`/v1/store/orders/${orderId}/${action}`, json(body ?? DECLINE, { key }))
    : api.fetch(`/v1/store/orders/${orderId}/${action}`, { method: 'POST', key });

/** The animal as the API shows it (its status and count of applications in review). */
export const petOf = async (api: TTestApi, key: string, petId: number): Promise<TPet> => {
  const response = await api.fetch(`/v1/pets?id=${petId}`, { key });
  const [pet] = (await response.json()) as TPet[];
  if (!pet) {
    throw new Error(`no animal ${petId}`);
  }
  return pet;
};

export const petStatus = async (api: TTestApi, petId: number) =>
  (await api.prisma.pet.findUniqueOrThrow({ where: { id: BigInt(petId) } })).status;
