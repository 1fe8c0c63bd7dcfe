import { ZPetPhoto, ZPetPhotos } from '@pets/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { json } from '../../test/api-harness';
import {
  exifOf,
  phoneJpeg,
  photoForm,
  pixelAt,
  plainPng,
  plainWebp,
  STORE_KINDS,
  usePhotoApi,
} from './photos.test-support';

type TPhotoBody = ReturnType<typeof ZPetPhoto.parse>;

describe.each(STORE_KINDS)('photos, %s store', (kind) => {
  const photos = usePhotoApi(kind);
  const { api } = photos;

  const uploaded = async (response: Response): Promise<TPhotoBody> => {
    expect(response.status).toBe(201);
    // The answer is the contract's PetPhoto, exactly (the schema is strict about its shape).
    return ZPetPhoto.parse(await response.json());
  };

  it('takes a phone picture as the body: upright WebP sizes without any metadata, fetchable and cached for good', async () => {
    const petId = await photos.createPet();
    const response = await photos.upload(petId, await phoneJpeg(1600, 1000), 'image/jpeg');
    const photo = await uploaded(response);
    expect(response.headers.get('location')).toBe(`/v1/pets/${petId}/photos/${photo.id}`);
    // Orientation 6: 1600×1000 as stored is 1000×1600 upright; 1000 is below 1200, so the
    // largest size is the original width.
    expect(photo.sizes.map((size) => [size.width, size.height])).toEqual([
      [160, 256],
      [480, 768],
      [1000, 1600],
    ]);
    expect([photo.width, photo.height]).toEqual([1000, 1600]);
    expect(photo.placeholder).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);

    for (const size of photo.sizes) {
      const file = await photos.fetchFile(size.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await file.arrayBuffer());
      const metadata = await sharp(bytes).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual([
        'webp',
        size.width,
        size.height,
      ]);
      // No EXIF at all, so no GPS position, no camera, no orientation left to apply twice.
      expect(await exifOf(bytes)).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(bytes.includes(Buffer.from('PhoneCo'))).toBe(false);
      if (kind === 'local') {
        expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      }
    }
    // Upright: the red half of the sideways picture is now on top.
    const largest = await photos.fetchFile(photo.sizes[2]?.url ?? '');
    const bytes = Buffer.from(await largest.arrayBuffer());
    expect((await pixelAt(bytes, 500, 100))[0]).toBeGreaterThan(150);
    expect((await pixelAt(bytes, 500, 1500))[0]).toBeLessThan(100);
  });

  it('takes a multipart form, ignoring the file name and the declared type', async () => {
    const petId = await photos.createPet();
    const png = await plainPng(300, 200);
    const response = await photos.uploadForm(
      petId,
      photoForm(png, { fileName: 'holiday.jpg', type: 'image/jpeg' }),
    );
    const photo = await uploaded(response);
    // 300 px wide: 160 and the original 300, never upscaled to 480 or 1200.
    expect(photo.sizes.map((size) => [size.width, size.height])).toEqual([
      [160, 107],
      [300, 200],
    ]);
    for (const size of photo.sizes) {
      expect(size.url).toMatch(new RegExp(`/pets/${petId}/[0-9a-f]{16}-${size.width}\\.webp$`));
      expect(size.url).not.toContain('holiday');
      expect((await photos.fetchFile(size.url)).status).toBe(200);
    }
  });

  it('keeps the photos in upload order on the animal, and reorders them', async () => {
    const petId = await photos.createPet('Mr. Whiskers');
    const ids: number[] = [];
    for (const width of [200, 220, 240]) {
      ids.push(
        (await uploaded(await photos.upload(petId, await plainWebp(width, 150), 'image/webp'))).id,
      );
    }
    const pet = async () =>
      (await (await api.fetch(`/v1/pets?id=${petId}`)).json()) as { photos: TPhotoBody[] }[];
    expect((await pet())[0]?.photos.map((photo) => photo.id)).toEqual(ids);

    const order = [ids[2], ids[0], ids[1]] as number[];
    const response = await api.fetch(
      `/v1/pets/${petId}/photos/order`,
      json({ photoIds: order }, { method: 'PUT' }),
    );
    expect(response.status).toBe(200);
    const body = ZPetPhotos.parse(await response.json());
    expect(body.map((photo) => photo.id)).toEqual(order);
    expect(body.map((photo) => photo.sizes.at(-1)?.width)).toEqual([240, 200, 220]);
    expect((await pet())[0]?.photos.map((photo) => photo.id)).toEqual(order);

    // The same order again changes nothing.
    const again = await api.fetch(
      `/v1/pets/${petId}/photos/order`,
      json({ photoIds: order }, { method: 'PUT' }),
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
  });

  it('deletes a photo with its files; the others stay, in order', async () => {
    const petId = await photos.createPet();
    const first = await uploaded(await photos.upload(petId, await plainPng(600, 400), 'image/png'));
    const second = await uploaded(
      await photos.upload(petId, await plainWebp(500, 500), 'image/webp'),
    );
    const filesBefore = await photos.localFiles();

    const response = await api.fetch(`/v1/pets/${petId}/photos/${first.id}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');

    for (const size of first.sizes) {
      expect((await photos.fetchFile(size.url)).status).toBe(404);
    }
    for (const size of second.sizes) {
      expect((await photos.fetchFile(size.url)).status).toBe(200);
    }
    const [pet] = (await (await api.fetch(`/v1/pets?id=${petId}`)).json()) as {
      photos: TPhotoBody[];
    }[];
    expect(pet?.photos.map((photo) => photo.id)).toEqual([second.id]);
    if (kind === 'local') {
      const filesAfter = await photos.localFiles();
      expect(filesBefore.length - filesAfter.length).toBe(first.sizes.length);
      expect(
        filesAfter.some((file) => file.includes(`${first.sizes[0]?.url.split('/').pop()}`)),
      ).toBe(false);
    }
    // Gone is gone: a second delete is a 404.
    const again = await api.fetch(`/v1/pets/${petId}/photos/${first.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('is idempotent with an Idempotency-Key: a retry of the same image is answered as the first', async () => {
    const petId = await photos.createPet();
    const image = await plainPng(320, 240);
    const headers = { 'idempotency-key': `photo-${kind}-1` };
    const first = await uploaded(await photos.upload(petId, image, 'image/png', { headers }));
    const retry = await photos.upload(petId, image, 'image/png', { headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(`/v1/pets/${petId}/photos/${first.id}`);
    expect(await retry.json()).toEqual(first);
    // The same key with other bytes is another request: refused, not stored.
    const other = await photos.upload(petId, await plainPng(330, 240), 'image/png', { headers });
    expect(other.status).toBe(422);
    const [pet] = (await (await api.fetch(`/v1/pets?id=${petId}`)).json()) as {
      photos: TPhotoBody[];
    }[];
    expect(pet?.photos).toHaveLength(1);
  });
});
