import type { TOrder } from '@pets/contract';
import { FirstPartyHeader } from '@pets/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPet, placedOrder } from '../modules/orders/orders.test-support';
import { startTestApi, type TTestApi } from '../test/api-harness';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TTestSite,
  testSite,
} from './accounts.test-support';

/**
 * "Approved by Anna Ortiz": a change made by a person through the store's site names them in the
 * order's history, for staff; a partner sees the key's display start alone, never a staff name.
 */

let api: TTestApi;
let site: TTestSite;
let partner: string;
let staffKey: string;
let categoryId: number;

beforeAll(async () => {
  api = await startTestApi({ env: ACCOUNT_TEST_ENV });
  site = await testSite(api);
  partner = await api.createKey({ name: 'partner' });
  staffKey = await api.createKey({ name: 'script', role: 'staff' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Rabbits' } })).id);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

const orderAs = async (key: string, orderId: number): Promise<TOrder> => {
  const response = await api.fetch(`/v1/store/orders/${orderId}`, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as TOrder;
};

describe('order history names the person', () => {
  it('an approval through the site reads "by Anna Ortiz" for staff, and only the key for the partner', async () => {
    const anna = await createAccount(api, 'staff', { name: 'Anna Ortiz' });
    const { credential } = await signInAs(site, anna);
    const petId = await createPet(api, staffKey, categoryId, 'Clover');
    const order = await placedOrder(api, partner, petId);

    const approved = await api.fetch(`/v1/store/orders/${order.id}/approve`, {
      method: 'POST',
      key: credential,
      headers: { [FirstPartyHeader.firstPartyKey]: site.key },
    });
    expect(approved.status).toBe(200);
    const asAnna = (await approved.json()) as TOrder;
    expect(asAnna.history.at(-1)).toMatchObject({ to: 'approved', byName: 'Anna Ortiz' });

    // A CLI staff key (a script) sees the name too.
    expect((await orderAs(staffKey, order.id)).history.at(-1)?.byName).toBe('Anna Ortiz');
    // The partner whose application it is sees who by key only.
    const asPartner = await orderAs(partner, order.id);
    expect(asPartner.history.at(-1)?.to).toBe('approved');
    expect(asPartner.history.every((entry) => !('byName' in entry))).toBe(true);
    const listed = await api.fetch('/v1/store/orders', { key: partner });
    expect(JSON.stringify(await listed.json())).not.toContain('Anna Ortiz');
  });

  it('a change by a CLI staff key has no name: only its display start', async () => {
    const petId = await createPet(api, staffKey, categoryId, 'Basil');
    const order = await placedOrder(api, partner, petId);
    const approved = await api.fetch(`/v1/store/orders/${order.id}/approve`, {
      method: 'POST',
      key: staffKey,
    });
    expect(approved.status).toBe(200);
    const entry = ((await approved.json()) as TOrder).history.at(-1);
    expect(entry?.by).toMatch(/^pets_(live|test)_/);
    expect(entry && 'byName' in entry).toBe(false);
  });
});
