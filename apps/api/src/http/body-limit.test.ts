import { BODY_LIMIT_BYTES } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { burst, limitHeaders, list } from '../rate-limit/rate-limit.test-support';
import { errorBody, useTestApi } from '../test/api-harness';
import { BODY_DRAIN_LIMIT_BYTES } from './body';

// A body over the limit goes through the same steps as any request: 401 without a valid key, then
// 429 for a limited caller, then 413, each with the rate-limit headers; and the client gets that
// answer instead of a reset connection, for bodies up to BODY_DRAIN_LIMIT_BYTES.

const api = useTestApi();
let categoryId: number;

beforeAll(async () => {
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Ferrets' } })).id);
});

/** A JSON object of exactly `bytes` bytes. */
const jsonOf = (bytes: number): string => {
  const frame = JSON.stringify({ name: '', categoryId });
  return JSON.stringify({ name: 'x'.repeat(bytes - frame.length), categoryId });
};

const post = (body: string | Uint8Array, key: string | null, contentType = 'application/json') =>
  api.fetch('/v1/pets', {
    method: 'POST',
    body,
    key,
    headers: { 'content-type': contentType },
  });

const expectAnswer = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(await errorBody(response)).toMatchObject({ code, status, message: expect.any(String) });
  expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
};

describe('a body over the limit: 401, then 429, then 413', () => {
  const oversized = jsonOf(20 * 1024);

  it('without a key: 401 with rate-limit headers (the Free numbers, per address)', async () => {
    const response = await post(oversized, null);
    await expectAnswer(response, 401, 'unauthorized');
    expect(limitHeaders(response).limit).toBe(60);
  });

  it('a key already limited: 429', async () => {
    const key = await api.createKey({ plan: 'free' });
    await burst(list(api, key), 60);
    await expectAnswer(await post(oversized, key), 429, 'rate_limited');
  });

  it('a valid key: 413 with rate-limit headers, counted like any request', async () => {
    const key = await api.createKey({ plan: 'pro' });
    const response = await post(oversized, key);
    await expectAnswer(response, 413, 'payload_too_large');
    expect(limitHeaders(response)).toMatchObject({ limit: 300, remaining: 299 });
  });

  it('a body one byte over the limit is 413, one at the limit is parsed', async () => {
    const key = await api.createKey({ plan: 'pro' });
    await expectAnswer(await post(jsonOf(BODY_LIMIT_BYTES + 1), key), 413, 'payload_too_large');
    expect((await post(jsonOf(BODY_LIMIT_BYTES), key)).status).toBe(400);
  });

  it('a body sent without Content-Length (chunked) is held to the same limit', async () => {
    const key = await api.createKey({ plan: 'pro' });
    const chunks = [jsonOf(20 * 1024)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) {
          controller.close();
        } else {
          controller.enqueue(new TextEncoder().encode(next));
        }
      },
    });
    const response = await api.fetch('/v1/pets', {
      method: 'POST',
      body: stream,
      key,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    await expectAnswer(response, 413, 'payload_too_large');
  });

  it('another media type over the limit: 413 too, after the key check', async () => {
    await expectAnswer(await post('x'.repeat(20 * 1024), null, 'text/plain'), 401, 'unauthorized');
    const key = await api.createKey({ plan: 'pro' });
    await expectAnswer(
      await post('x'.repeat(20 * 1024), key, 'text/plain'),
      413,
      'payload_too_large',
    );
  });
});

describe('bodies up to the drain limit get their answer, not a reset connection', () => {
  it('the drain limit is 1 MiB', () => {
    expect(BODY_DRAIN_LIMIT_BYTES).toBe(1024 * 1024);
  });

  it("Node's fetch sending 1 MiB gets the 401 or the 413, every time, on a kept-alive connection", async () => {
    const key = await api.createKey({ plan: 'pro' });
    const body = Buffer.alloc(BODY_DRAIN_LIMIT_BYTES, 0x20);
    for (let round = 0; round < 10; round += 1) {
      await expectAnswer(await post(body, null), 401, 'unauthorized');
      const response = await post(body, key);
      await expectAnswer(response, 413, 'payload_too_large');
      expect(response.headers.get('connection')).not.toBe('close');
    }
  });

  it('past the drain limit the connection is closed after the 413, and the API serves on', async () => {
    const key = await api.createKey({ plan: 'pro' });
    const outcome = await post(Buffer.alloc(5_000_000, 0x20), key).then(
      async (response) => {
        await expectAnswer(response, 413, 'payload_too_large');
        expect(response.headers.get('connection')).toBe('close');
        return 'answered';
      },
      () => 'cut',
    );
    expect(['answered', 'cut']).toContain(outcome);
    expect((await list(api, key)()).status).toBe(200);
  });
});
