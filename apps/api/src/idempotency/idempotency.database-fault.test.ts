import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TTestApi } from '../test/api-harness';
import { startPostgres, type TPostgresServer } from '../test/postgres-server';
import { createTestDatabase } from '../test/test-database';

/**
 * An Idempotency-Key whose request failed for a database fault is free again within a few seconds
 * of the database answering, not after the 60 s lease. PostgreSQL (the test's own) is
 * frozen while a keyed createPet claims its key: the client gives up on the claim (503), but the
 * frozen server commits it once resumed; the API gives it back as soon as it can.
 */

const STATEMENT_TIMEOUT_MS = 1_000;
const FREEZE_MS = 4_000;
/** What the docs promise: about the retry interval after the database answers, plus a margin. */
const FREE_AGAIN_BOUND_MS = 5_000;

let postgres: TPostgresServer;
let api: TTestApi;
let key: string;
let categoryId: number;

beforeAll(async () => {
  postgres = await startPostgres();
  const database = await createTestDatabase({ adminUrl: postgres.adminUrl });
  api = await startTestApi({
    database,
    env: { DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) },
  });
  key = await api.createKey({ role: 'staff' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
}, 90_000);

afterAll(async () => {
  await postgres?.resume();
  await api?.close().catch(() => undefined);
  await postgres?.close();
});

const post = (idempotencyKey: string, name: string) =>
  api.fetch('/v1/pets', {
    key,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ name, categoryId }),
    signal: AbortSignal.timeout(30_000),
  });

describe('Idempotency-Key and a frozen database', () => {
  it('a key whose claim failed is free within seconds of the database answering', {
    timeout: 90_000,
  }, async () => {
    // Warm: the key is known and cached, so the frozen database meets the claim first.
    expect((await post(randomUUID(), 'Warm')).status).toBe(201);
    const idempotencyKey = randomUUID();
    await postgres.pause();
    const failed = await post(idempotencyKey, 'Frozen');
    expect(failed.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, FREEZE_MS));
    await postgres.resume();
    const resumedAt = Date.now();

    let status = 0;
    const seen: number[] = [];
    while (Date.now() - resumedAt < 70_000) {
      const retry = await post(idempotencyKey, 'Frozen');
      status = retry.status;
      seen.push(status);
      await retry.arrayBuffer();
      if (status === 201) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const freeAfterMs = Date.now() - resumedAt;
    process.stdout.write(`key free again ${freeAfterMs} ms after the resume: ${seen.join(',')}\n`);
    expect(status).toBe(201);
    expect(freeAfterMs).toBeLessThan(FREE_AGAIN_BOUND_MS);
    expect(seen.every((each) => [201, 409, 503].includes(each))).toBe(true);
    expect(await api.prisma.pet.count({ where: { name: 'Frozen' } })).toBe(1);
  });
});
