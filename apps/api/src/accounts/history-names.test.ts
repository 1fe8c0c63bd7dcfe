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
    // Nor in the partner's event feed (which its webhooks deliver).
    const events = await api.fetch('/v1/events', { key: partner });
    expect(events.status).toBe(200);
    const feed = JSON.stringify(await events.json());
    expect(feed).toContain(`"id":${order.id}`);
    expect(feed).not.toContain('Anna Ortiz');
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

describe('the audit log', () => {
  it('an approval by a person is one entry with their name, listed for an admin filtered by them; a refused change writes none', async () => {
    const anna = await createAccount(api, 'staff', { name: 'Anna Audit' });
    const admin = await createAccount(api, 'admin', { name: 'Ada Admin' });
    const annaSession = await signInAs(site, anna);
    const adminSession = await signInAs(site, admin);
    const petId = await createPet(api, staffKey, categoryId, 'Thyme');
    const order = await placedOrder(api, partner, petId);
    const approve = () =>
      api.fetch(`/v1/store/orders/${order.id}/approve`, {
        method: 'POST',
        key: annaSession.credential,
        headers: { [FirstPartyHeader.firstPartyKey]: site.key },
      });
    expect((await approve()).status).toBe(200);
    // Approving again is refused (409): nothing changed, nothing audited.
    expect((await approve()).status).toBe(409);

    const listed = await site.asPerson(
      adminSession.credential,
      `/internal/audit?actor=${anna.id}&action=order.approved`,
    );
    expect(listed.status).toBe(200);
    const { entries, nextBefore } = (await listed.json()) as {
      entries: { actorName: string; action: string; targetType: string; targetId: string }[];
      nextBefore: string | null;
    };
    expect(entries).toEqual([
      expect.objectContaining({
        actorName: 'Anna Audit',
        action: 'order.approved',
        targetType: 'order',
        targetId: String(order.id),
      }),
    ]);
    expect(nextBefore).toBeNull();
    // Anna's own sign-in is there too, and staff may not read the log.
    const everything = await site.asPerson(
      adminSession.credential,
      `/internal/audit?actor=${anna.id}`,
    );
    const actions = ((await everything.json()) as { entries: { action: string }[] }).entries.map(
      (entry) => entry.action,
    );
    expect(actions).toEqual(['order.approved', 'session.started']);
    expect((await site.asPerson(annaSession.credential, '/internal/audit')).status).toBe(403);
    // A partner's order placement is not audited.
    const partnerRows = await api.pool.query(
      "SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'order.%' AND target_id = $1",
      [String(order.id)],
    );
    expect(partnerRows.rows[0]?.n).toBe(1);
  });

  it('pages newest first with nextBefore, and filters by day', async () => {
    const admin = await createAccount(api, 'admin');
    const { credential } = await signInAs(site, admin);
    const first = await site.asPerson(credential, '/internal/audit?limit=1');
    const page = (await first.json()) as { entries: { id: string }[]; nextBefore: string | null };
    expect(page.entries).toHaveLength(1);
    expect(page.nextBefore).toBe(page.entries[0]?.id);
    const next = await site.asPerson(
      credential,
      `/internal/audit?limit=1&before=${page.nextBefore}`,
    );
    const older = (await next.json()) as { entries: { id: string }[] };
    expect(Number(older.entries[0]?.id)).toBeLessThan(Number(page.entries[0]?.id));
    const none = await site.asPerson(credential, '/internal/audit?from=2000-01-01&to=2000-01-02');
    expect(((await none.json()) as { entries: unknown[] }).entries).toEqual([]);
    expect((await site.asPerson(credential, '/internal/audit?from=yesterday')).status).toBe(400);
  });
});
