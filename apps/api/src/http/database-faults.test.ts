import { createServer, type Server } from 'node:net';
import { createPool, createPrismaClient, Prisma } from '@pets/db';
import { PetsRepository } from '@pets/store/pets.repository';
import { withTransaction } from '@pets/store/transaction';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../test/api-harness';
import { freePort } from '../test/redis-server';
import { testDatabase } from '../test/test-database';
import {
  classifyDatabaseError,
  DATABASE_RETRY_AFTER_SECONDS,
  databaseErrorResponse,
} from './database-faults';

/**
 * The errors are real ones, raised by `pg`, its pool and Prisma against a real PostgreSQL (a
 * database of this file's own on the test server; no server is stopped here: the outages under
 * load are in database-outage.test.ts, on a PostgreSQL of their own).
 */

/** What a promise rejected with (the test fails if it resolved). */
const failureOf = async (work: Promise<unknown>): Promise<unknown> => {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

const database = testDatabase({ poolSize: 2 });
const { prisma } = database;
let categoryId: number;

beforeAll(database.create);
beforeAll(async () => {
  categoryId = Number((await prisma.category.create({ data: { name: 'Dogs' } })).id);
});
afterAll(database.drop);

describe('data PostgreSQL refuses: 400 invalid_request', () => {
  it('a NUL character (22021), through our statements and through Prisma', async () => {
    const pets = new PetsRepository(database.pool, 'http://localhost:4000/media');
    const fromPg = await failureOf(
      pets.create({ name: 'Nul\u0000Name', categoryId, status: 'available' }),
    );
    expect((fromPg as { code?: string }).code).toBe('22021');
    const fromPrisma = await failureOf(
      prisma.pet.create({ data: { name: 'Nul\u0000Name', categoryId } }),
    );
    for (const error of [fromPg, fromPrisma]) {
      expect(classifyDatabaseError(error)).toEqual({ kind: 'refused_data' });
      const answer = databaseErrorResponse(error);
      expect(answer?.toBody()).toEqual({
        code: 'invalid_request',
        status: 400,
        message: expect.not.stringMatching(/22021|0x00|UTF8|byte sequence/),
      });
    }
  });

  it('a value longer than its column (22001) and a number out of range (22003)', async () => {
    const tooLong = await failureOf(
      prisma.pet.create({ data: { name: 'x'.repeat(300), categoryId } }),
    );
    const outOfRange = await failureOf(database.pool.query('SELECT 99999999999::int4'));
    expect(classifyDatabaseError(tooLong)).toEqual({ kind: 'refused_data' });
    expect(classifyDatabaseError(outOfRange)).toEqual({ kind: 'refused_data' });
  });

  it('over HTTP: a NUL in a pet name is a 400, never a 500', async () => {
    // A separate API on its own database: the NUL reaches PostgreSQL (or is refused before it).
    const response = await api.fetch(
      '/v1/pets',
      json({ name: 'Bis\u0000cuit', categoryId: apiCategoryId }),
    );
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toMatchObject({ code: 'invalid_request', status: 400 });
  });
});

describe('the database unavailable: 503 with Retry-After', () => {
  it('a statement over the statement timeout (57014), through pg and through Prisma', async () => {
    const pool = createPool(database.url, 1, undefined, { statementTimeoutMs: 200 });
    const client = createPrismaClient(pool);
    try {
      const fromPg = await failureOf(pool.query('SELECT pg_sleep(3)'));
      expect((fromPg as { code?: string }).code).toBe('57014');
      const fromPrisma = await failureOf(client.$queryRaw`SELECT pg_sleep(3)`);
      for (const error of [fromPg, fromPrisma]) {
        expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', fault: 'timeout' });
        const answer = databaseErrorResponse(error);
        expect(answer?.status).toBe(503);
        expect(answer?.headers).toEqual({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
      }
      // The connection is still good: PostgreSQL cancelled the statement, not the session.
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.$disconnect();
      await pool.end();
    }
  });

  it('no answer within the client-side query timeout ("Query read timeout"): the connection is dropped, the pool serves again', async () => {
    const pool = createPool(database.url, 1, undefined, { queryTimeoutMs: 400 });
    try {
      const startedAt = performance.now();
      const error = await failureOf(pool.query('SELECT pg_sleep(5)'));
      const waitedMs = performance.now() - startedAt;
      expect((error as Error).message).toBe('Query read timeout');
      expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', fault: 'timeout' });
      // Not before the timeout; long before the statement would have ended (two samples late at most, and a loaded machine).
      expect(waitedMs).toBeGreaterThanOrEqual(400);
      expect(waitedMs).toBeLessThan(3_000);
      // The pool's one connection was discarded, not returned busy: the next query gets a new one.
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      // A query answered within the timeout is untouched, however many run one after another.
      for (let round = 0; round < 3; round++) {
        expect((await pool.query('SELECT pg_sleep(0.15), 2 AS two')).rows[0]).toMatchObject({
          two: 2,
        });
      }
    } finally {
      await pool.end();
    }
  });

  it('a transaction whose statement gets no answer in time fails with "Query read timeout" and leaves no connection behind', async () => {
    const pool = createPool(database.url, 1, undefined, { queryTimeoutMs: 400 });
    try {
      const error = await failureOf(
        withTransaction(pool, async (client) => {
          await client.query('SELECT 1');
          await client.query('SELECT pg_sleep(5)');
        }),
      );
      expect((error as Error).message).toBe('Query read timeout');
      expect(databaseErrorResponse(error)?.status).toBe(503);
      await withTransaction(pool, (client) => client.query('SELECT 1'));
      expect(pool.totalCount).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('the pool exhausted ("timeout exceeded when trying to connect"), through pg and Prisma', async () => {
    const pool = createPool(database.url, 1, undefined, { connectTimeoutMs: 150 });
    const client = createPrismaClient(pool);
    const held = await pool.connect();
    try {
      const fromPg = await failureOf(pool.query('SELECT 1'));
      expect((fromPg as Error).message).toBe('timeout exceeded when trying to connect');
      const fromPrisma = await failureOf(client.category.findMany());
      for (const error of [fromPg, fromPrisma]) {
        expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', fault: 'busy' });
      }
    } finally {
      held.release();
      await client.$disconnect();
      await pool.end();
    }
  });

  it('connection refused, through pg and Prisma (P1001)', async () => {
    const pool = createPool(`postgresql://postgres@127.0.0.1:${await freePort()}/none`, 1);
    const client = createPrismaClient(pool);
    try {
      const fromPg = await failureOf(pool.query('SELECT 1'));
      const fromPrisma = await failureOf(client.category.findMany());
      expect((fromPrisma as { code?: string }).code).toBe('P1001');
      for (const error of [fromPg, fromPrisma]) {
        expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', fault: 'unreachable' });
      }
    } finally {
      await client.$disconnect();
      await pool.end();
    }
  });

  describe('a server that closes connections without a word', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      port = await freePort();
      server = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('"Connection terminated unexpectedly" (no code), through pg and Prisma', async () => {
      const pool = createPool(`postgresql://postgres@127.0.0.1:${port}/none`, 1);
      const client = createPrismaClient(pool);
      try {
        const fromPg = await failureOf(pool.query('SELECT 1'));
        expect((fromPg as Error).message).toBe('Connection terminated unexpectedly');
        expect((fromPg as { code?: string }).code).toBeUndefined();
        const fromPrisma = await failureOf(client.category.findMany());
        for (const error of [fromPg, fromPrisma]) {
          expect(classifyDatabaseError(error)).toMatchObject({ kind: 'unavailable' });
        }
      } finally {
        await client.$disconnect();
        await pool.end();
      }
    });
  });

  it('a connection ended by the server (57P01 admin shutdown), through Prisma', async () => {
    const pool = createPool(database.url, 1);
    const client = createPrismaClient(pool);
    try {
      const [backend] = await client.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      const sleeping = failureOf(client.$queryRaw`SELECT pg_sleep(5)`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await database.pool.query('SELECT pg_terminate_backend($1)', [backend?.pid]);
      const error = await sleeping;
      expect(classifyDatabaseError(error)).toMatchObject({ kind: 'unavailable' });
      // And the next query gets a new connection.
      expect(await client.category.count()).toBe(1);
    } finally {
      await client.$disconnect();
      await pool.end();
    }
  });
});

describe('what is not a database outage stays a 500', () => {
  it('a missing column (42703) and a unique violation are not classified', async () => {
    const missing = await failureOf(database.pool.query('SELECT no_such_column FROM pets'));
    const duplicate = await failureOf(prisma.category.create({ data: { name: 'Dogs' } }));
    expect(classifyDatabaseError(missing)).toBeUndefined();
    expect(classifyDatabaseError(duplicate)).toBeUndefined();
    expect(databaseErrorResponse(missing)).toBeNull();
  });
});

describe('the chain of causes', () => {
  it("Prisma's P2039 wrapping 57P03 (the database starting up), as a probe saw it", () => {
    const error = new Prisma.PrismaClientKnownRequestError(
      'Database error. Code: `57P03`. Message: `the database system is starting up`',
      {
        code: 'P2039',
        clientVersion: Prisma.prismaVersion.client,
        meta: {
          driverAdapterError: Object.assign(new Error('DriverAdapterError'), {
            name: 'DriverAdapterError',
            cause: { kind: 'postgres', originalCode: '57P03', code: '57P03' },
          }),
        },
      },
    );
    expect(classifyDatabaseError(error)).toEqual({
      kind: 'unavailable',
      fault: 'starting_or_stopping',
    });
  });

  it('is walked safely: a cycle ends, a chain too deep is not followed forever', () => {
    const cyclic = new Error('outer') as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(classifyDatabaseError(cyclic)).toBeUndefined();

    let deep: unknown = Object.assign(new Error('bottom'), { code: '57P03' });
    for (let level = 0; level < 1_000; level += 1) {
      deep = new Error(`level ${level}`, { cause: deep });
    }
    expect(classifyDatabaseError(deep)).toBeUndefined();
    const shallow = new Error('top', {
      cause: new Error('middle', { cause: Object.assign(new Error('x'), { code: '57P03' }) }),
    });
    expect(classifyDatabaseError(shallow)).toMatchObject({ kind: 'unavailable' });
    expect(classifyDatabaseError(null)).toBeUndefined();
    expect(classifyDatabaseError('57P03')).toBeUndefined();
  });
});

const api = useTestApi();
let apiCategoryId: number;
beforeAll(async () => {
  apiCategoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
});
