import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { PHOTO_MAX_BYTES } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json } from '../../test/api-harness';
import { photoForm, plainPng, STORE_KINDS, usePhotoApi } from './photos.test-support';

/** Sends a path as written, without the URL normalisation fetch() applies (`..` resolved). */
const rawGet = (baseUrl: string, path: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const outgoing = request({ hostname, port, path, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });

describe.each(STORE_KINDS)('photo security, %s store', (kind) => {
  const photos = usePhotoApi(kind);
  const { api } = photos;
  let petId: number;

  beforeAll(async () => {
    petId = await photos.createPet();
  });

  it('ignores path tricks in a multipart file name: the name never reaches storage', async () => {
    for (const fileName of [
      '../../etc/passwd',
      '..\\..\\windows\\win.ini',
      '/tmp/x.png',
      '%2e%2e%2fx',
    ]) {
      const response = await photos.uploadForm(
        petId,
        photoForm(await plainPng(64, 64), { fileName, type: 'image/png' }),
      );
      expect(response.status).toBe(201);
      const photo = (await response.json()) as { sizes: { url: string }[] };
      for (const { url } of photo.sizes) {
        expect(new URL(url).pathname).toMatch(/\/pets\/\d+\/[0-9a-f]{16}-\d+\.webp$/);
      }
    }
    expect(existsSync(join(photos.dataDir, 'etc'))).toBe(false);
    for (const file of await photos.localFiles()) {
      expect(file).toMatch(/^pets\/\d+\/[0-9a-f]{16}-\d+\.webp$/);
    }
  });

  it('checks the key before the body: 401 without a key, 429 over the limit, 403 for a read-only key, nothing read', async () => {
    const image = await plainPng(64, 64);
    const anonymous = await photos.upload(petId, image, 'image/png', { key: null });
    expect([anonymous.status, (await errorBody(anonymous)).code]).toEqual([401, 'unauthorized']);
    // Over the limit and of the wrong type, still 401 first: the order is 401, 429, then 413/415.
    const bigJunk = Buffer.alloc(PHOTO_MAX_BYTES + 10);
    const junk = await photos.upload(petId, bigJunk, 'text/plain', { key: null });
    expect(junk.status).toBe(401);

    const kiosk = await api.createKey({ name: 'kiosk', readOnly: true });
    const readOnly = await photos.upload(petId, bigJunk, 'text/plain', { key: kiosk });
    expect([readOnly.status, (await errorBody(readOnly)).code]).toEqual([403, 'forbidden']);
    const deleting = await api.fetch(`/v1/pets/${petId}/photos/1`, {
      method: 'DELETE',
      key: kiosk,
    });
    expect(deleting.status).toBe(403);
    const ordering = await api.fetch(
      `/v1/pets/${petId}/photos/order`,
      json({ photoIds: [] }, { method: 'PUT', key: kiosk }),
    );
    expect(ordering.status).toBe(403);
    // A key over its limit: 429 before the body is looked at, too.
    const limited = await api.createKey({
      name: 'limited',
      plan: 'enterprise',
      rateLimitPerMinute: 1,
      rateLimitPerDay: 100,
      // Staff: a partner changes the photos of its own animals only.
      role: 'staff',
    });
    expect((await photos.upload(petId, image, 'image/png', { key: limited })).status).toBe(201);
    const over = await photos.upload(petId, bigJunk, 'text/plain', { key: limited });
    expect([over.status, (await errorBody(over)).code]).toEqual([429, 'rate_limited']);
    // A partner key that may write may add photos (no staff role needed) to the animals it
    // created, and not to another party's.
    const partner = await api.createKey({ name: 'partner', role: 'partner' });
    expect((await photos.upload(petId, image, 'image/png', { key: partner })).status).toBe(403);
    const own = await api.fetch(
      '/v1/pets',
      json(
        { name: 'Own', categoryId: Number((await api.prisma.category.findFirstOrThrow()).id) },
        { key: partner },
      ),
    );
    const ownId = ((await own.json()) as { id: number }).id;
    expect((await photos.upload(ownId, image, 'image/png', { key: partner })).status).toBe(201);
  });

  it('every other route keeps its 16 KiB limit', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(20 * 1024), categoryId: 1 });
    const response = await api.fetch('/v1/pets', json(big));
    expect([response.status, (await errorBody(response)).code]).toEqual([413, 'payload_too_large']);
    const order = await api.fetch(
      `/v1/pets/${petId}/photos/order`,
      json(JSON.stringify({ photoIds: Array.from({ length: 5000 }, (_, i) => i + 1) }), {
        method: 'PUT',
      }),
    );
    expect(order.status).toBe(413);
  });

  it('/media serves only stored files: no traversal, no key needed, nothing else', async () => {
    const response = await photos.upload(petId, await plainPng(64, 64), 'image/png');
    const photo = (await response.json()) as { sizes: { url: string }[] };
    const path = new URL(photo.sizes[0]?.url ?? '').pathname;
    if (kind === 'local') {
      const file = await fetch(`${api.baseUrl}${path}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('content-security-policy')).toContain("default-src 'none'");
      // Shown by pages of other origins (the site, partners): not same-origin like the rest.
      expect(file.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const head = await fetch(`${api.baseUrl}${path}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/webp');
      expect(Number(head.headers.get('content-length'))).toBe(
        (await file.arrayBuffer()).byteLength,
      );
    } else {
      // With a bucket the API serves no files: they are the bucket's (or its CDN's).
      expect((await fetch(`${api.baseUrl}${path.replace(/^\/[^/]+/, '/media')}`)).status).toBe(404);
    }
    for (const attempt of [
      '/media/../../../../etc/passwd',
      '/media/pets/1/../../../../etc/passwd',
      '/media/pets/1/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '/media/pets/..%2F..%2F..%2Fetc/passwd',
      '/media/pets/1/%2e%2e%2f%2e%2e%2fpackage.json',
      '/media/pets/1/0123456789abcdef-160.webp',
      '/media/pets/1/0123456789abcdef-160.webp.partial',
      '/media/pets/1/',
      '/media/',
    ]) {
      const answer = await rawGet(api.baseUrl, attempt);
      expect(answer.status, attempt).toBe(404);
      expect(answer.body, attempt).not.toContain('root:');
    }
  });
});
