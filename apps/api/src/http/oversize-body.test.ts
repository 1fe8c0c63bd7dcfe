import { request as httpRequest } from 'node:http';
import { ApiKeysRepository } from '@pets/store/api-keys.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from '../test/api-process';
import { testDatabases } from '../test/test-database';

/**
 * Bodies over the limit, sent with Node's fetch (what most integrators use), which keeps sending
 * while the answer arrives: the client must receive the documented 413 every time, not
 * EPIPE/ECONNRESET (5-60% of tries before lingering close, http/lingering-close.ts). The built API
 * runs as a process of its own: in the test's own process the client's writes and the server's
 * reads share one event loop, and the race never shows.
 */

const TRIES = 20;
const databases = testDatabases();
let api: TApiProcess;
let staffKey: string;
let petId: number;

beforeAll(async () => {
  const { prisma, pool, url } = await databases.open();
  ({ key: staffKey } = await new ApiKeysRepository(pool).create({
    name: 'staff',
    plan: 'business',
    role: 'staff',
    environment: 'production',
  }));
  const category = await prisma.category.create({ data: { name: 'Otters' } });
  petId = Number(
    (await prisma.pet.create({ data: { name: 'Pebble', categoryId: category.id } })).id,
  );
  api = await startApiProcess({ DATABASE_URL: url });
}, 90_000);

afterAll(async () => {
  api?.child.kill('SIGTERM');
  await api?.exited;
  await databases.dropAll();
});

const outcomes = async (send: () => Promise<Response>) => {
  const seen: string[] = [];
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    try {
      const response = await send();
      const body = (await response.json()) as { code: string; status: number };
      seen.push(`${response.status} ${body.code}`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      seen.push(`no answer (${cause?.code ?? String(error)})`);
    }
  }
  return seen;
};

describe('a body over the limit, sent with fetch', () => {
  it(`5 MB createPet: ${TRIES} of ${TRIES} get 413 payload_too_large`, {
    timeout: 60_000,
  }, async () => {
    const body = JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024), categoryId: 1 });
    const seen = await outcomes(() =>
      fetch(`${api.baseUrl}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${staffKey}`, 'content-type': 'application/json' },
        body,
      }),
    );
    expect(seen).toEqual(Array.from({ length: TRIES }, () => '413 payload_too_large'));
  });

  it(`12 MB photo: ${TRIES} of ${TRIES} get the documented 413`, { timeout: 60_000 }, async () => {
    const bytes = new Uint8Array(12 * 1024 * 1024);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    const seen = await outcomes(() =>
      fetch(`${api.baseUrl}/v1/pets/${petId}/photos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${staffKey}`, 'content-type': 'image/jpeg' },
        body: bytes,
      }),
    );
    expect(new Set(seen).size, seen.join(', ')).toBe(1);
    expect(seen[0]).toMatch(/^413 (payload_too_large|image_too_large)$/);
  });

  it('Expect: 100-continue: no 100 for a body no route reads, the 413 instead; 100 for a small one', async () => {
    const expectContinue = (path: string, type: string, length: number, body: Buffer) =>
      new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
        let continued = false;
        const request = httpRequest(`${api.baseUrl}${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${staffKey}`,
            'content-type': type,
            'content-length': String(length),
            expect: '100-continue',
          },
        });
        request.on('continue', () => {
          continued = true;
          request.end(body);
        });
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve({ continued, status: response.statusCode ?? 0 }));
        });
        request.on('error', reject);
        request.flushHeaders();
      });
    expect(
      await expectContinue(
        `/v1/pets/${petId}/photos`,
        'image/jpeg',
        12 * 1024 * 1024,
        Buffer.alloc(0),
      ),
    ).toEqual({ continued: false, status: 413 });
    const small = Buffer.from(JSON.stringify({ name: 'Continued', categoryId: 1 }));
    const answered = await expectContinue('/v1/pets', 'application/json', small.length, small);
    expect(answered.continued).toBe(true);
  });

  it('the API still serves afterwards', async () => {
    const response = await fetch(`${api.baseUrl}/v1/pets?limit=1`, {
      headers: { authorization: `Bearer ${staffKey}` },
    });
    expect(response.status).toBe(200);
  });
});
