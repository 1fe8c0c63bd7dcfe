import type { TOrder, TOrderAction } from '@pets/contract';
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

export const placedOrder = async (api: TTestApi, key: string, petId: number): Promise<TOrder> => {
  const response = await placeOrder(api, key, petId);
  if (response.status !== 201) {
    throw new Error(`placeOrder answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as TOrder;
};

export const transition = (api: TTestApi, key: string, orderId: number, action: TOrderAction) =>
  api.fetch(`/v1/store/orders/${orderId}/${action}`, { method: 'POST', key });

export const petStatus = async (api: TTestApi, petId: number) =>
  (await api.prisma.pet.findUniqueOrThrow({ where: { id: BigInt(petId) } })).status;
