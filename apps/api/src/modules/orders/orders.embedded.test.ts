import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TOrder } from '@pets/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from '../../test/api-process';
import { runCliProcess } from '../../test/cli-process';

/**
 * The same adoption on the embedded default (DATABASE_URL unset, PGlite): the built API owns a
 * new DATA_DIR, `pnpm keys create --role staff` uses its database while it runs, and simultaneous
 * orders for one animal still give exactly one order.
 */

let dataDir: string;
let api: TApiProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pets-orders-embedded-'));
});

afterAll(async () => {
  if (api) {
    api.child.kill('SIGTERM');
    await api.exited;
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('orders on the embedded database', () => {
  it('a partner orders, a staff key approves and completes; 10 racing orders give one', {
    timeout: 180_000,
  }, async () => {
    const env = { DATA_DIR: dataDir, APP_ENV: 'production' };
    api = await startApiProcess(env);
    const base = api.baseUrl;
    // The new embedded database prints its demo key (a partner key) once.
    const partner = /^\s+(pets_live_\S+)$/m.exec(api.stdout())?.[1] ?? '';
    expect(partner).toMatch(/^pets_live_/);
    const created = await runCliProcess(
      ['keys', 'create', '--plan', 'pro', '--role', 'staff'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const staff = created.stdout.trim().split('\n').at(-1) ?? '';

    const call = (key: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method: body === undefined ? (path.includes('/store/orders/') ? 'POST' : 'GET') : 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const statusOf = async (petId: number) =>
      ((await (await call(partner, `/v1/pets?id=${petId}`)).json()) as { status: string }[])[0]
        ?.status;

    const [category] = (await (await call(partner, '/v1/categories')).json()) as { id: number }[];
    const pet = (await (
      await call(staff, '/v1/pets', { name: 'Embedded Bun', categoryId: category?.id })
    ).json()) as { id: number };
    const adopter = { name: 'Ada Lovelace', email: 'ada@example.org' };

    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(partner, '/v1/store/orders', { petId: pet.id, adopter }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const order = (await responses.find((response) => response.status === 201)?.json()) as TOrder;
    // One application per adopter; the animal stays available for others.
    expect(await statusOf(pet.id)).toBe('available');
    const other = await call(partner, '/v1/store/orders', {
      petId: pet.id,
      adopter: { name: 'Bo Bramble', email: 'bo@example.org' },
    });
    expect(other.status).toBe(201);
    const otherOrder = (await other.json()) as TOrder;

    expect((await call(partner, `/v1/store/orders/${order.id}/approve`)).status).toBe(403);
    expect((await call(staff, `/v1/store/orders/${order.id}/approve`)).status).toBe(200);
    expect(await statusOf(pet.id)).toBe('pending');
    const ordersOf = async () =>
      (await (await call(staff, `/v1/store/orders?petId=${pet.id}`)).json()) as TOrder[];
    expect((await ordersOf()).find((each) => each.id === otherOrder.id)?.status).toBe('waitlisted');
    const completed = await call(staff, `/v1/store/orders/${order.id}/complete`);
    expect(completed.status).toBe(200);
    expect(((await completed.json()) as TOrder).history.map((entry) => entry.to)).toEqual([
      'placed',
      'approved',
      'completed',
    ]);
    expect(await statusOf(pet.id)).toBe('sold');
    expect((await ordersOf()).find((each) => each.id === otherOrder.id)).toMatchObject({
      status: 'declined',
      declineReason: 'adopted_by_another_family',
    });
    expect((await call(partner, `/v1/store/orders/${order.id}/cancel`)).status).toBe(409);
    expect(await statusOf(pet.id)).toBe('sold');
  });
});
