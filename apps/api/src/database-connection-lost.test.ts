import { ApiKeysRepository } from '@pets/store/api-keys.repository';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from './test/api-process';
import { startPostgres, type TPostgresServer } from './test/postgres-server';
import { testDatabase } from './test/test-database';

/**
 * A connection lost while a request holds it checked out in a transaction: the
 * request's backend killed with SIGKILL while it waits on a row lock, and PostgreSQL stopped with
 * `pg_ctl -m immediate` under a small load of transactions, ten short cycles. The built API must
 * answer that request `503` with `Retry-After` and live on (before the fix, the checked-out
 * client's unheard `'error'` event ended the process). The PostgreSQL is the test's own.
 */

const CYCLES = process.env.DATABASE_FAULT_CAMPAIGN === '1' ? 30 : 10;
const CLIENTS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let postgres: TPostgresServer;
let database: ReturnType<typeof testDatabase> | undefined;
let api: TApiProcess;
let staffKey: string;
let exitCode: number | null | undefined;

const fixture = (): ReturnType<typeof testDatabase> => {
  if (!database) {
    throw new Error('the database starts in beforeAll');
  }
  return database;
};

const createPet = async (name: string): Promise<number> => {
  const { prisma } = fixture();
  const category = await prisma.category.upsert({
    where: { name: 'Dogs' },
    update: {},
    create: { name: 'Dogs' },
  });
  return Number((await prisma.pet.create({ data: { name, categoryId: category.id } })).id);
};

type TAnswer = { status: number; body: unknown; retryAfter: string | null; failure?: string };

const call = async (method: string, path: string, body?: unknown): Promise<TAnswer> => {
  try {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${staffKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text: the assertion shows it.
    }
    return {
      status: response.status,
      body: parsed,
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: 0, body: null, retryAfter: null, failure: cause?.code ?? String(error) };
  }
};

const placeOrder = (petId: number) =>
  call('POST', '/v1/store/orders', {
    petId,
    adopter: { name: 'Ada Lovelace', email: 'ada@example.org' },
  });

/** An open transaction of the test's own holding `FOR UPDATE` on the animal's row. */
const lockPet = async (petId: number) => {
  const client = new Client({ connectionString: fixture().url });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT id FROM pets WHERE id = $1 FOR UPDATE', [petId]);
  return client;
};

/** The API's backend waiting on a lock, once it waits. */
const waitingBackend = async (): Promise<number> => {
  const admin = new Client({ connectionString: fixture().url });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'pets-api' AND wait_event_type = 'Lock'",
      );
      if (rows[0]) {
        return rows[0].pid;
      }
      await sleep(50);
    }
    throw new Error('no API backend ever waited on the lock');
  } finally {
    await admin.end();
  }
};

const expect503 = (answer: TAnswer) => {
  expect(answer).toEqual({
    status: 503,
    body: { code: 'service_unavailable', status: 503, message: expect.any(String) },
    retryAfter: expect.stringMatching(/^[1-9]\d*$/),
  });
};

const expectAlive = async () => {
  expect(exitCode, api.stderr().slice(-2_000)).toBeUndefined();
  const health = await fetch(`${api.baseUrl}/healthz`);
  expect(health.status).toBe(200);
};

/** Until the API serves a read again (PostgreSQL back, pool reconnected). */
const waitForService = async () => {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if ((await call('GET', '/v1/pets?limit=1')).status === 200) {
      return;
    }
    await sleep(100);
  }
  throw new Error('the API did not serve again within 20 s');
};

beforeAll(async () => {
  postgres = await startPostgres();
  database = testDatabase({ adminUrl: postgres.adminUrl, poolSize: 2 });
  await database.create();
  // Limits the load cannot reach: on a quick machine it sends over a business key's 1,000 a
  // minute, and a 429 is not what this test is about.
  ({ key: staffKey } = await new ApiKeysRepository(database.pool).create({
    name: 'staff',
    plan: 'enterprise',
    rateLimitPerMinute: 10_000_000,
    rateLimitPerDay: 100_000_000,
    role: 'staff',
    environment: 'production',
  }));
  api = await startApiProcess({
    DATABASE_URL: database.url,
    // The lock wait must outlast the kill; a frozen statement still ends.
    DATABASE_STATEMENT_TIMEOUT_MS: '15000',
    DATABASE_POOL_SIZE: '5',
  });
  void api.exited.then((code) => {
    exitCode = code;
  });
}, 90_000);

afterAll(async () => {
  api?.child.kill('SIGKILL');
  await api?.exited;
  await database?.prisma.$disconnect().catch(() => undefined);
  await database?.pool.end().catch(() => undefined);
  await postgres?.close();
});

describe('a PostgreSQL connection lost while a request holds it', () => {
  it('a placeOrder waiting on a row lock whose backend is SIGKILLed: 503 with Retry-After, the API lives on', {
    timeout: 60_000,
  }, async () => {
    const petId = await createPet('Locked Rex');
    const holder = await lockPet(petId);
    const pending = placeOrder(petId);
    const pid = await waitingBackend();
    process.kill(pid, 'SIGKILL');
    const answer = await pending;
    await holder.end().catch(() => undefined);

    expect503(answer);
    await sleep(500);
    await expectAlive();
    await waitForService();
    expect((await placeOrder(petId)).status).toBe(201);
  });

  it(`pg_ctl -m immediate stop under a small load of transactions, ${CYCLES} cycles: no exit, no 500`, {
    timeout: 240_000,
  }, async () => {
    const statuses: Record<string, number> = {};
    const count = ({ status, failure }: TAnswer) => {
      const name = failure ? `no answer (${failure})` : String(status);
      statuses[name] = (statuses[name] ?? 0) + 1;
    };
    const unexpected: TAnswer[] = [];
    const check = (answer: TAnswer) => {
      count(answer);
      if (answer.status === 503) {
        expect503(answer);
      } else if (![200, 201, 409].includes(answer.status)) {
        unexpected.push(answer);
      }
      return answer;
    };

    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      await waitForService();
      // One request certainly inside a transaction when the server stops: it waits on a lock.
      const lockedPet = await createPet(`Locked ${cycle}`);
      const holder = await lockPet(lockedPet);
      const blocked = placeOrder(lockedPet).then(check);
      await waitingBackend();
      const pets = await Promise.all(
        Array.from({ length: CLIENTS }, (_, client) => createPet(`Load ${cycle}-${client}`)),
      );
      let isRunning = true;
      // Each client places an order and cancels it (two transactions), over and over.
      const load = pets.map(async (petId) => {
        while (isRunning) {
          const placed = check(await placeOrder(petId));
          const order = placed.body as { id?: number };
          if (placed.status === 201 && order.id) {
            check(await call('POST', `/v1/store/orders/${order.id}/cancel`));
          }
          await sleep(20);
        }
      });
      await sleep(300);
      await postgres.stopImmediately();
      await holder.end().catch(() => undefined);
      await sleep(300);
      isRunning = false;
      await Promise.all([...load, blocked]);
      await postgres.start();
      await expectAlive();
    }
    await waitForService();
    process.stdout.write(`immediate stops x${CYCLES}: ${JSON.stringify(statuses)}\n`);
    expect(unexpected.slice(0, 5), JSON.stringify(statuses)).toEqual([]);
    expect(statuses['503'] ?? 0).toBeGreaterThanOrEqual(CYCLES);
    await expectAlive();
  });
});
