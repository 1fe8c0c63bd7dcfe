import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { json, startTestApi } from './api-harness';

/** Every file under a folder, relative to it. */
const filesUnder = (folder: string): string[] =>
  existsSync(folder) ? readdirSync(folder, { recursive: true, encoding: 'utf8' }) : [];

describe('the test harness', () => {
  it('keeps an uploaded photo in a temporary folder of its own, never in the checkout, and removes it', {
    timeout: 60_000,
  }, async () => {
    const checkoutMedia = join(REPO_ROOT, '.data', 'media');
    const before = filesUnder(checkoutMedia);
    const api = await startTestApi();
    const { dataDir } = api.config;
    try {
      expect(dataDir.startsWith(tmpdir())).toBe(true);
      const category = await api.prisma.category.create({ data: { name: 'Dogs' } });
      const created = await api.fetch(
        '/v1/pets',
        json({ name: 'Harness', categoryId: Number(category.id) }),
      );
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const image = await sharp({
        create: { width: 320, height: 240, channels: 3, background: '#88aa66' },
      })
        .jpeg()
        .toBuffer();
      const uploaded = await api.fetch(`/v1/pets/${id}/photos`, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: image,
      });
      expect(uploaded.status).toBe(201);
      expect(filesUnder(join(dataDir, 'media')).some((file) => file.endsWith('.webp'))).toBe(true);
    } finally {
      await api.close();
    }
    expect(existsSync(dataDir)).toBe(false);
    expect(filesUnder(checkoutMedia)).toEqual(before);
  });
});
