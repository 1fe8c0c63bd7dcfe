import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, type ClientRequest, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeysRepository } from '@pets/store/api-keys.repository';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from './test/api-process';
import { expectedPet } from './test/pets';
import { testDatabase } from './test/test-database';

/**
 * SIGTERM on the built API, run as a child process exactly as in production: it stops accepting
 * connections, lets the requests in flight finish, closes the pool, flushes the embedded
 * database, and exits 0.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const running: TApiProcess[] = [];
const start = async (env: Record<string, string>) => {
  const api = await startApiProcess(env);
  running.push(api);
  return api;
};

afterEach(() => {
  for (const api of running.splice(0)) {
    api.child.kill('SIGKILL');
  }
});

type TSlowRequest = {
  request: ClientRequest;
  /** Sends the rest of the body. */
  finish: () => void;
  response: Promise<{ status: number; body: string; headers: Record<string, unknown> }>;
};

/**
 * A POST whose body arrives in two parts: after the first, the request is in flight on the
 * server (headers read, body pending) for as long as the test wants.
 */
const slowCreate = (baseUrl: string, key: string, name: string): TSlowRequest => {
  const body = JSON.stringify({ name, categoryId: 1 });
  const half = Math.floor(body.length / 2);
  const sent = request(`${baseUrl}/v1/pets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    },
  });
  const response = new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      sent.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }),
        );
      });
      sent.on('error', reject);
    },
  );
  sent.write(body.slice(0, half));
  return { request: sent, finish: () => sent.end(body.slice(half)), response };
};

/** Whether a new connection is refused (the listening socket is closed). */
const isRefused = async (baseUrl: string): Promise<boolean> => {
  try {
    await fetch(`${baseUrl}/healthz`, { headers: { connection: 'close' } });
    return false;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
  }
};

const waitUntil = async (check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) {
      return true;
    }
    await sleep(25);
  }
  return false;
};

describe('on PostgreSQL (DATABASE_URL)', () => {
  const database = testDatabase({ poolSize: 2 });
  const { prisma, pool } = database;
  let key: string;

  beforeAll(database.create);
  beforeAll(async () => {
    await prisma.category.create({ data: { id: 1, name: 'Dogs' } });
    key = (
      await new ApiKeysRepository(pool).create({
        name: 'shutdown',
        plan: 'business',
        environment: 'production',
      })
    ).key;
  });

  afterAll(database.drop);

  it('finishes the requests in flight, refuses new connections meanwhile, exits 0', async () => {
    const api = await start({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_SECONDS: '20' });
    // Warm keep-alive connections (fetch pools them): idle ones must not hold the shutdown back.
    for (let index = 0; index < 5; index += 1) {
      expect(
        (await fetch(`${api.baseUrl}/v1/pets`, { headers: { authorization: `Bearer ${key}` } }))
          .status,
      ).toBe(200);
    }
    const slow = [
      slowCreate(api.baseUrl, key, 'Inflight One'),
      slowCreate(api.baseUrl, key, 'Inflight Two'),
    ];
    await sleep(300);

    api.child.kill('SIGTERM');
    expect(await waitUntil(() => isRefused(api.baseUrl), 5_000)).toBe(true);
    expect(api.child.exitCode).toBeNull();

    const finishedAt = Date.now();
    for (const request of slow) {
      request.finish();
    }
    const responses = await Promise.all(slow.map((request) => request.response));
    for (const response of responses) {
      expect(response.status).toBe(201);
      expect(response.headers.connection).toBe('close');
    }
    expect(responses.map((response) => JSON.parse(response.body).name).sort()).toEqual([
      'Inflight One',
      'Inflight Two',
    ]);

    expect(await api.exited).toBe(0);
    expect(Date.now() - finishedAt).toBeLessThan(5_000);
    const stored = await prisma.pet.findMany({ where: { name: { startsWith: 'Inflight' } } });
    expect(stored).toHaveLength(2);
    const messages = api.logs().map((line) => line.msg);
    expect(messages).toContain(
      'shutting down: accepting no new connections, finishing in-flight requests',
    );
    expect(messages.at(-1)).toBe('stopped');
    expect(api.logs().filter((line) => line.msg === 'request' && line.status === 201)).toHaveLength(
      2,
    );
  });

  it('SIGTERM under keep-alive load resets no request: each is answered or refused at connect', {
    timeout: 60_000,
  }, async () => {
    const api = await start({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const clients = 6;
    const keys = await Promise.all(
      Array.from(
        { length: clients },
        async (_, index) =>
          (
            await new ApiKeysRepository(pool).create({
              name: `load ${index}`,
              plan: 'business',
              environment: 'production',
            })
          ).key,
      ),
    );
    type TOutcome = {
      method: string;
      name?: string;
      status?: number;
      connection?: string;
      error?: string;
      reused: boolean;
      sentAt: number;
    };
    const outcomes: TOutcome[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;

    /** One request on the client's keep-alive agent; never rejects. */
    const send = (agent: Agent, key: string, method: 'GET' | 'POST', name: string) =>
      new Promise<TOutcome>((resolve) => {
        const body = method === 'POST' ? JSON.stringify({ name, categoryId: 1 }) : undefined;
        const sentAt = Date.now();
        const sent = request(`${api.baseUrl}/v1/pets${method === 'GET' ? '?limit=5' : ''}`, {
          method,
          agent,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body
              ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
              : {}),
          },
        });
        sent.on('response', (response) => {
          response.resume();
          response.on('end', () =>
            resolve({
              method,
              ...(method === 'POST' ? { name } : {}),
              status: response.statusCode,
              connection: response.headers.connection,
              reused: sent.reusedSocket,
              sentAt,
            }),
          );
        });
        sent.on('error', (error: NodeJS.ErrnoException) =>
          resolve({
            method,
            name,
            error: error.code ?? error.message,
            reused: sent.reusedSocket,
            sentAt,
          }),
        );
        sent.end(body);
      });

    /** Sends GETs and POSTs back to back until its requests are refused at connect. */
    const client = async (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 2 });
      const key = keys[index] as string;
      try {
        for (let sequence = 0; ; sequence += 1) {
          const batch = await Promise.all([
            send(agent, key, 'GET', ''),
            send(agent, key, 'POST', `Load ${index}-${sequence}`),
          ]);
          outcomes.push(...batch);
          if (batch.some((outcome) => outcome.error === 'ECONNREFUSED')) {
            return;
          }
          if (Date.now() - signalledAt > 10_000) {
            throw new Error('the API kept answering 10 s after SIGTERM');
          }
        }
      } finally {
        agent.destroy();
      }
    };

    const load = Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
    // The signal lands in the middle of steady load: after a few hundred answers.
    for (let waited = 0; outcomes.length < 300 && waited < 20_000; waited += 25) {
      await sleep(25);
    }
    signalledAt = Date.now();
    api.child.kill('SIGTERM');
    await load;
    expect(await api.exited).toBe(0);
    const after = outcomes.filter((outcome) => outcome.sentAt >= signalledAt);
    const summary: Record<string, number> = {};
    for (const outcome of after) {
      const label = String(outcome.status ?? outcome.error);
      summary[label] = (summary[label] ?? 0) + 1;
    }
    const report = `${outcomes.length} requests, after SIGTERM: ${JSON.stringify(summary)}`;
    process.stderr.write(`shutdown under load: ${report}\n`);

    // Load before and after the signal, answered normally.
    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    expect(answered.filter((outcome) => outcome.sentAt < signalledAt).length).toBeGreaterThan(50);
    expect(answered.some((outcome) => outcome.connection === 'close')).toBe(true);
    expect(new Set(answered.map((outcome) => outcome.status))).toEqual(new Set([200, 201]));
    // No request reset, hung up or failed: only refusals of new connections.
    const failed = outcomes.filter((outcome) => outcome.error !== undefined);
    expect(
      failed.filter((outcome) => outcome.error !== 'ECONNREFUSED'),
      report,
    ).toEqual([]);
    expect(failed.every((outcome) => !outcome.reused)).toBe(true);
    // Every acknowledged POST is stored, once.
    const acknowledged = answered
      .filter((outcome) => outcome.status === 201)
      .map((outcome) => outcome.name as string)
      .sort();
    const stored = await prisma.pet.findMany({
      where: { name: { startsWith: 'Load ' } },
      select: { name: true },
    });
    expect(stored.map((pet) => pet.name).sort()).toEqual(acknowledged);
    expect(api.logs().filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it('a request sent on an idle keep-alive connection just after SIGTERM is answered, not reset', async () => {
    const api = await start({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(api.baseUrl).port) });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const get = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    socket.write(get);
    expect(await waitUntil(async () => received.includes('\r\n\r\n['), 5_000)).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    received = '';

    // The connection is idle when the signal arrives; the client sends its next request on it
    // a moment later, as a keep-alive client does.
    api.child.kill('SIGTERM');
    expect(await waitUntil(() => isRefused(api.baseUrl), 5_000)).toBe(true);
    socket.write(get);
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(await api.exited).toBe(0);
  });

  it('a request that never finishes loses its connection after SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const api = await start({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const stuck = slowCreate(api.baseUrl, key, 'Never Finished');
    const outcome = stuck.response.then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await sleep(300);
    const signalledAt = Date.now();
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
    const took = Date.now() - signalledAt;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5_000);
    expect(await outcome).toBe('ECONNRESET');
    expect(
      api
        .logs()
        .some((line) => line.msg === 'in-flight requests did not finish in time: closing them'),
    ).toBe(true);
    stuck.request.destroy();
  });
});

describe('on the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pets-shutdown-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a pet acknowledged just before SIGTERM is there after a restart', {
    timeout: 120_000,
  }, async () => {
    const first = await start({ DATA_DIR: dataDir });
    // A new embedded database prints its demo key once, on standard output.
    const key = /^\s+(pets_live_\S+)$/m.exec(first.stdout())?.[1];
    expect(key).toBeTruthy();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const categories = (await (
      await fetch(`${first.baseUrl}/v1/categories`, { headers })
    ).json()) as { id: number }[];
    const created = await fetch(`${first.baseUrl}/v1/pets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Last Before Shutdown', categoryId: categories[0]?.id }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    // SIGTERM right after the acknowledgement: no pause for the database to settle.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await start({ DATA_DIR: dataDir });
    expect(second.stdout()).not.toContain('demo API key');
    const fetched = await fetch(`${second.baseUrl}/v1/pets?limit=1`, { headers });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual([
      expectedPet({
        id: pet.id,
        name: 'Last Before Shutdown',
        categoryId: categories[0]?.id as number,
        status: 'available',
      }),
    ]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
