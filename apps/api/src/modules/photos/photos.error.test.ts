import { PET_PHOTOS_MAX, PHOTO_MAX_BYTES } from '@pets/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json } from '../../test/api-harness';
import {
  brokenJpeg,
  GIF_BYTES,
  HTML_BYTES,
  PDF_BYTES,
  phoneJpeg,
  photoForm,
  plainPng,
  plainWebp,
  pngBomb,
  STORE_KINDS,
  SVG_BYTES,
  usePhotoApi,
} from './photos.test-support';

describe.each(STORE_KINDS)('photo errors, %s store', (kind) => {
  const photos = usePhotoApi(kind);
  const { api } = photos;
  let petId: number;

  beforeAll(async () => {
    petId = await photos.createPet();
  });

  /** The error's code and status, and that the body's status is the HTTP status. */
  const refusal = async (response: Response) => {
    const body = await errorBody(response);
    expect(body.status).toBe(response.status);
    return [response.status, body.code];
  };

  const photoCount = async () => {
    const [pet] = (await (await api.fetch(`/v1/pets?id=${petId}`)).json()) as {
      photos: unknown[];
    }[];
    return pet?.photos.length;
  };

  it.each([
    ['a PDF', PDF_BYTES],
    ['an SVG with a script', SVG_BYTES],
    ['a GIF', GIF_BYTES],
    ['an HTML page', HTML_BYTES],
  ])('refuses %s declared as image/jpeg: 415, told from its bytes', async (_name, bytes) => {
    const response = await photos.upload(petId, bytes, 'image/jpeg');
    expect(await refusal(response)).toEqual([415, 'unsupported_media_type']);
  });

  it('refuses a disguised file in a form too', async () => {
    const form = photoForm(SVG_BYTES, { fileName: 'cat.png', type: 'image/png' });
    expect(await refusal(await photos.uploadForm(petId, form))).toEqual([
      415,
      'unsupported_media_type',
    ]);
  });

  it('reads a PNG declared as image/jpeg as the PNG it is', async () => {
    const response = await photos.upload(petId, await plainPng(200, 100), 'image/jpeg');
    expect(response.status).toBe(201);
  });

  it.each([
    ['text/plain', 'hello'],
    ['application/json', '{"photo":"x"}'],
    ['application/octet-stream', 'bytes'],
    ['image/gif', 'GIF89a'],
  ])('refuses a body of type %s: 415', async (type, text) => {
    const response = await photos.upload(petId, Buffer.from(text), type);
    expect(await refusal(response)).toEqual([415, 'unsupported_media_type']);
  });

  it('refuses a body over the limit: 413, whether its length is declared or not', async () => {
    const tooBig = Buffer.alloc(PHOTO_MAX_BYTES + 1, 0xff);
    tooBig.set([0xff, 0xd8, 0xff], 0);
    const declared = await photos.upload(petId, tooBig, 'image/jpeg');
    expect(await refusal(declared)).toEqual([413, 'payload_too_large']);
    expect((await errorBody(await photos.upload(petId, tooBig, 'image/jpeg'))).message).toContain(
      '10 MiB',
    );
    // Streamed without a Content-Length: counted while reading, and refused at the limit.
    const chunks = async function* () {
      for (let sent = 0; sent <= PHOTO_MAX_BYTES; sent += 1024 * 1024) {
        yield tooBig.subarray(sent, sent + 1024 * 1024);
      }
    };
    const streamed = await fetch(`${api.baseUrl}/v1/pets/${petId}/photos`, {
      method: 'POST',
      headers: {
        // Another key, so the earlier refusals count against no limit: staff, for this animal.
        authorization: `Bearer ${await api.createKey({ role: 'staff' })}`,
        'content-type': 'image/jpeg',
      },
      body: ReadableStream.from(chunks()),
      duplex: 'half',
    } as RequestInit);
    expect(await refusal(streamed)).toEqual([413, 'payload_too_large']);
  });

  it('takes an image just under the limit', async () => {
    // A PNG of noise does not compress: about 9 MiB for 1800×1800×3.
    const noise = Buffer.alloc(1800 * 1800 * 3);
    for (let index = 0; index < noise.length; index += 1) {
      noise[index] = Math.imul(index, 2_654_435_761) >>> 24;
    }
    const png = await import('sharp').then(({ default: sharp }) =>
      sharp(noise, { raw: { width: 1800, height: 1800, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    );
    expect(png.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(png.length).toBeLessThanOrEqual(PHOTO_MAX_BYTES);
    const response = await photos.upload(petId, png, 'image/png');
    expect(response.status).toBe(201);
  });

  it('refuses a pixel bomb (a tiny PNG claiming 100000×100000): 413 image_too_large', async () => {
    const bomb = await pngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(1024);
    const response = await photos.upload(petId, bomb, 'image/png');
    const body = await errorBody(response);
    expect([response.status, body.code]).toEqual([413, 'image_too_large']);
    expect(body.message).toContain('100000×100000');
  });

  it('refuses a damaged image: 400 invalid_image', async () => {
    const response = await photos.upload(petId, await brokenJpeg(), 'image/jpeg');
    expect(await refusal(response)).toEqual([400, 'invalid_image']);
  });

  it('refuses an empty body and a form without its photo: 400', async () => {
    expect(await refusal(await photos.upload(petId, Buffer.alloc(0), 'image/png'))).toEqual([
      400,
      'invalid_request',
    ]);
    const wrongField = photoForm(await plainPng(50, 50), { field: 'image' });
    expect(await refusal(await photos.uploadForm(petId, wrongField))).toEqual([
      400,
      'invalid_request',
    ]);
    const onlyText = new FormData();
    onlyText.append('caption', 'Biscuit in the garden');
    expect(await refusal(await photos.uploadForm(petId, onlyText))).toEqual([
      400,
      'invalid_request',
    ]);
    const two = photoForm(await plainPng(50, 50));
    two.append('photo', new Blob([new Uint8Array(await plainPng(60, 60))]), 'b.png');
    expect(await refusal(await photos.uploadForm(petId, two))).toEqual([400, 'invalid_request']);
  });

  it('stores nothing for a refused upload', async () => {
    const before = await photoCount();
    const filesBefore = await photos.localFiles();
    await photos.upload(petId, await brokenJpeg(), 'image/jpeg');
    await photos.upload(petId, await pngBomb(), 'image/png');
    await photos.upload(petId, PDF_BYTES, 'image/jpeg');
    expect(await photoCount()).toBe(before);
    expect(await photos.localFiles()).toEqual(filesBefore);
  });

  it('answers 404 for an unknown animal, before reading the image', async () => {
    const response = await photos.upload(987_654_321, await phoneJpeg(64, 48), 'image/jpeg');
    expect(await refusal(response)).toEqual([404, 'not_found']);
    expect(await refusal(await photos.upload('abc', await plainPng(8, 8), 'image/png'))).toEqual([
      400,
      'invalid_request',
    ]);
  });

  it('answers 404 for a photo that is not the animal’s, and leaves it alone', async () => {
    const other = await photos.createPet('Other');
    const response = await photos.upload(other, await plainWebp(100, 100), 'image/webp');
    const photo = (await response.json()) as { id: number; sizes: { url: string }[] };
    const wrongPet = await api.fetch(`/v1/pets/${petId}/photos/${photo.id}`, {
      method: 'DELETE',
    });
    expect(await refusal(wrongPet)).toEqual([404, 'not_found']);
    expect((await photos.fetchFile(photo.sizes[0]?.url ?? '')).status).toBe(200);
    const unknownPhoto = await api.fetch(`/v1/pets/${petId}/photos/999999999`, {
      method: 'DELETE',
    });
    expect(await refusal(unknownPhoto)).toEqual([404, 'not_found']);
    const unknownPet = await api.fetch(`/v1/pets/999999999/photos/${photo.id}`, {
      method: 'DELETE',
    });
    expect(await refusal(unknownPet)).toEqual([404, 'not_found']);
  });

  it('refuses an order that is not exactly the animal’s photos: 409, nothing changed', async () => {
    const pet = await photos.createPet('Order');
    const ids: number[] = [];
    for (const width of [100, 110]) {
      const response = await photos.upload(pet, await plainWebp(width, 80), 'image/webp');
      ids.push(((await response.json()) as { id: number }).id);
    }
    const order = (photoIds: unknown) =>
      api.fetch(`/v1/pets/${pet}/photos/order`, json({ photoIds }, { method: 'PUT' }));
    expect(await refusal(await order([ids[1]]))).toEqual([409, 'photo_order_conflict']);
    expect(await refusal(await order([ids[1], ids[0], 999_999]))).toEqual([
      409,
      'photo_order_conflict',
    ]);
    expect(await refusal(await order([ids[0], ids[0]]))).toEqual([400, 'invalid_request']);
    expect(
      await refusal(
        await api.fetch('/v1/pets/999999/photos/order', json({ photoIds: [] }, { method: 'PUT' })),
      ),
    ).toEqual([404, 'not_found']);
    const [listed] = (await (await api.fetch(`/v1/pets?id=${pet}`)).json()) as {
      photos: { id: number }[];
    }[];
    expect(listed?.photos.map((photo) => photo.id)).toEqual(ids);
  });

  it(`refuses a photo past the ${PET_PHOTOS_MAX}th: 409 photo_limit_reached`, async () => {
    const pet = await photos.createPet('Many');
    const small = await plainWebp(40, 30);
    for (let index = 0; index < PET_PHOTOS_MAX; index += 1) {
      expect((await photos.upload(pet, small, 'image/webp')).status).toBe(201);
    }
    expect(await refusal(await photos.upload(pet, small, 'image/webp'))).toEqual([
      409,
      'photo_limit_reached',
    ]);
  });
});
