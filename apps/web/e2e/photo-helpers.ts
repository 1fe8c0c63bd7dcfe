import sharp from 'sharp';
import type { TApiClient } from './fixtures';

type TPhotoFormat = 'jpeg' | 'png' | 'webp';

const MEDIA_TYPES: Record<TPhotoFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/**
 * A photo made here, at test time (no photo from elsewhere is committed): a warm background with
 * a simple round "animal" on it, in the colours given, so two photos are told apart by eye and by
 * their files.
 */
export const makePhoto = async ({
  width = 960,
  height = 720,
  format = 'jpeg',
  background = '#d9a066',
  ink = '#5b3a1c',
}: {
  width?: number;
  height?: number;
  format?: TPhotoFormat;
  background?: string;
  ink?: string;
} = {}): Promise<{ buffer: Buffer; mimeType: string; name: string }> => {
  const r = Math.round(Math.min(width, height) / 4);
  const cx = Math.round(width / 2);
  const cy = Math.round(height / 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${background}"/>
    <rect y="${Math.round(height * 0.75)}" width="100%" height="${Math.round(height * 0.25)}" fill="#7a9a4a"/>
    <circle cx="${cx - r}" cy="${cy - r}" r="${Math.round(r / 2.5)}" fill="${ink}"/>
    <circle cx="${cx + r}" cy="${cy - r}" r="${Math.round(r / 2.5)}" fill="${ink}"/>
    <circle cx="${cx}" cy="${cy}" r="${r}" fill="${ink}"/>
    <circle cx="${cx - Math.round(r / 3)}" cy="${cy - Math.round(r / 5)}" r="${Math.round(r / 9)}" fill="#fff"/>
    <circle cx="${cx + Math.round(r / 3)}" cy="${cy - Math.round(r / 5)}" r="${Math.round(r / 9)}" fill="#fff"/>
  </svg>`;
  const image = sharp(Buffer.from(svg));
  const buffer = await (format === 'jpeg'
    ? image.jpeg({ quality: 85 })
    : format === 'png'
      ? image.png()
      : image.webp()
  ).toBuffer();
  return {
    buffer,
    mimeType: MEDIA_TYPES[format],
    name: `test-photo-${width}x${height}.${format === 'jpeg' ? 'jpg' : format}`,
  };
};

/**
 * Adds a photo through the API (the contract's client, multipart), for tests that need one. A
 * `File`, not a bare `Blob`: ts-rest's client sends only `File`s as files (a `Blob` would go as
 * JSON text).
 */
export const addPhotoThroughApi = async (
  api: TApiClient,
  petId: number,
  photo: { buffer: Buffer; mimeType: string; name: string },
) => {
  const response = await api.pets.addPetPhoto({
    params: { petId },
    body: {
      photo: new File([new Uint8Array(photo.buffer)], photo.name, { type: photo.mimeType }),
    },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  if (response.status !== 201) {
    throw new Error(`addPetPhoto answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
};
