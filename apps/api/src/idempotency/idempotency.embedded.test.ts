import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiProcess, type TApiProcess } from '../test/api-process';

/**
 * The same guarantee on the embedded default (no DATABASE_URL: PGlite served by the API process,
 * every connection of the pool multiplexed onto its one backend): simultaneous retries of one
 * createPet create one animal and get one answer. The built API, as `pnpm start` runs it.
 */

let dataDir: string;
let api: TApiProcess;
let demoKey: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pets-idempotency-'));
  api = await startApiProcess({ DATA_DIR: dataDir, APP_ENV: 'production' });
  // A new embedded database gets a demo key, printed once after the API listens.
  await vi.waitFor(() => expect(api.stdout()).toMatch(/^ {2}pets_live_\S+$/m), { timeout: 10_000 });
  demoKey = /^ {2}(pets_live_\S+)$/m.exec(api.stdout())?.[1] ?? '';
}, 90_000);

afterAll(async () => {
  api?.child.kill('SIGTERM');
  await api?.exited;
  await rm(dataDir, { recursive: true, force: true });
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${api.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${demoKey}`, ...(init.headers as Record<string, string>) },
  });

describe('Idempotency-Key on the embedded database', () => {
  it('20 simultaneous retries of one createPet: one animal, identical answers', async () => {
    const categories = (await (await call('/v1/categories')).json()) as { id: number }[];
    const categoryId = categories[0]?.id ?? 0;
    const key = randomUUID();
    const name = `Embedded ${key.slice(0, 8)}`;
    const post = () =>
      call('/v1/pets', {
        method: 'POST',
        body: JSON.stringify({ name, categoryId }),
        headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
      });
    const responses = await Promise.all(Array.from({ length: 20 }, post));
    const answers = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        location: response.headers.get('location'),
        body: await response.text(),
      })),
    );
    expect(answers[0]?.status).toBe(201);
    for (const answer of answers) {
      expect(answer).toEqual(answers[0]);
    }
    const replayed = responses.filter((r) => r.headers.get('idempotent-replayed') === 'true');
    expect(replayed).toHaveLength(19);
    const listed = (await (await call(`/v1/pets?limit=100`)).json()) as { name: string }[];
    expect(listed.filter((pet) => pet.name === name)).toHaveLength(1);
    // A different body with the key: the documented refusal.
    const reused = await call('/v1/pets', {
      method: 'POST',
      body: JSON.stringify({ name: `${name} again`, categoryId }),
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    });
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { code: string }).code).toBe('idempotency_key_reused');
  }, 30_000);
});
