import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { crc32 } from 'node:zlib';
import exifReader from 'exif-reader';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { json, type TTestApi, useTestApi } from '../../test/api-harness';

/**
 * Images made at test time (no photo from elsewhere is committed): a phone-like JPEG that carries
 * a GPS position, a camera and an orientation, a PNG that claims far more pixels than it has, and
 * a few impostors.
 */

/** Where the test "phone" was: a position that must never reach a stored file. */
export const GPS_POSITION = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '48/1 51/1 2400/100',
  GPSLongitudeRef: 'E',
  GPSLongitude: '2/1 21/1 0/1',
};

/**
 * A JPEG `width`×`height` as stored by a phone held sideways: EXIF orientation 6 (shown rotated
 * 90° clockwise, so upright it is `height`×`width`), a camera make and a GPS position. The left
 * half is red and the right half blue, so a test can tell which way it was turned.
 */
export const phoneJpeg = async (width = 1600, height = 1000): Promise<Buffer> => {
  const half = Math.floor(width / 2);
  const blue = await sharp({
    create: { width: width - half, height, channels: 3, background: { r: 20, g: 40, b: 220 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 3, background: { r: 220, g: 30, b: 30 } },
  })
    .composite([{ input: blue, left: half, top: 0 }])
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Pocket 9' }, IFD3: GPS_POSITION })
    .withMetadata({ orientation: 6 })
    .toBuffer();
};

export const plainPng = (width = 800, height = 600): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 4, background: { r: 40, g: 160, b: 90, alpha: 1 } } })
    .png()
    .toBuffer();

export const plainWebp = (width = 640, height = 480): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 240, g: 200, b: 60 } } })
    .webp()
    .toBuffer();

/**
 * A pixel bomb: a valid, tiny PNG whose header claims `width`×`height` pixels (its IHDR rewritten,
 * with a correct checksum, so only the size is a lie).
 */
export const pngBomb = async (width = 100_000, height = 100_000): Promise<Buffer> => {
  const png = Buffer.from(await plainPng(8, 8));
  // Signature (8), IHDR length (4), "IHDR" (4), then width and height; the CRC covers type + data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
};

export const GIF_BYTES = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64',
);
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
export const SVG_BYTES = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);
export const HTML_BYTES = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');

/** A JPEG cut after its first third: the signature is right, the data is not all there. */
export const brokenJpeg = async (): Promise<Buffer> => {
  const whole = await phoneJpeg(400, 300);
  return whole.subarray(0, Math.floor(whole.length / 3));
};

/** The EXIF of a stored file, read back; undefined when it has none. */
export const exifOf = async (bytes: Buffer): Promise<ReturnType<typeof exifReader> | undefined> => {
  const { exif } = await sharp(bytes).metadata();
  return exif ? exifReader(exif) : undefined;
};

/** The colour of a pixel of an image, as [r, g, b]. */
export const pixelAt = async (bytes: Buffer, x: number, y: number): Promise<number[]> => {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset] ?? -1, data[offset + 1] ?? -1, data[offset + 2] ?? -1];
};

// --- The API with either store, for the HTTP tests ---------------------------------------------

export type TPhotoStoreKind = 'local' | 's3';

export const STORE_KINDS: readonly TPhotoStoreKind[] = ['local', 's3'];

/** MEDIA_BASE_URL of the local store's tests: /media of the API, whose port is known later. */
const LOCAL_MEDIA_BASE = 'http://media.test/media';

const BUCKET = 'pets-photos-test';

export type TPhotoApi = {
  api: TTestApi;
  kind: TPhotoStoreKind;
  /** DATA_DIR of the local store (its files are under media/). */
  dataDir: string;
  /** Fetches a photo file by the URL the API gave out, from wherever that store serves it. */
  fetchFile: (url: string) => Promise<Response>;
  createPet: (name?: string) => Promise<number>;
  /** POSTs an image as the body itself, declared as `type`. */
  upload: (
    petId: number | string,
    bytes: Buffer,
    type: string,
    init?: TUploadInit,
  ) => Promise<Response>;
  /** POSTs a multipart/form-data form. */
  uploadForm: (petId: number | string, form: FormData, init?: TUploadInit) => Promise<Response>;
  /** The files of the local store, relative to DATA_DIR/media (empty for S3). */
  localFiles: () => Promise<string[]>;
};

type TUploadInit = { key?: string | null; headers?: Record<string, string> };

/**
 * The real API on its own database, storing photos locally (DATA_DIR in a fresh temporary
 * folder, served at /media) or in S3 (s3rver, an S3-compatible server, started here on a free
 * port with a bucket of its own).
 */
export const usePhotoApi = (kind: TPhotoStoreKind): TPhotoApi => {
  const env: Record<string, string> = {};
  let s3: S3rver | undefined;
  let dataDir = '';
  let s3Dir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pets-photos-'));
    env.DATA_DIR = dataDir;
    if (kind === 'local') {
      env.MEDIA_BASE_URL = LOCAL_MEDIA_BASE;
      return;
    }
    s3Dir = await mkdtemp(join(tmpdir(), 'pets-s3rver-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await s3.run();
    Object.assign(env, {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      // s3rver serves a bucket's files without a signature at /<bucket>/<key>, as a public
      // bucket (or a CDN in front of one) does.
      MEDIA_BASE_URL: `http://127.0.0.1:${port}/${BUCKET}`,
    });
  });
  // After hooks run last-registered first, so this one, registered before the API's, runs once
  // the API has closed: a photo or a dev-mailbox message still being written while the folder was
  // removed failed the file with ENOTEMPTY.
  afterAll(async () => {
    await s3?.close();
    await Promise.all(
      [dataDir, s3Dir].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })),
    );
  });
  // Registered after the first hook above, so it starts the API with the environment filled in.
  const api = useTestApi({ env });

  const headersOf = (init: TUploadInit, type?: string) => ({
    ...(type === undefined ? {} : { 'content-type': type }),
    ...init.headers,
  });
  return {
    api,
    kind,
    get dataDir() {
      return dataDir;
    },
    fetchFile: (url) => {
      if (!url.startsWith(`${env.MEDIA_BASE_URL}/`)) {
        throw new Error(`not an address under MEDIA_BASE_URL: ${url}`);
      }
      return kind === 'local' ? fetch(`${api.baseUrl}${new URL(url).pathname}`) : fetch(url);
    },
    createPet: async (name = 'Biscuit') => {
      const category = await api.prisma.category.upsert({
        where: { name: 'Dogs' },
        create: { name: 'Dogs' },
        update: {},
      });
      const response = await api.fetch('/v1/pets', json({ name, categoryId: Number(category.id) }));
      if (response.status !== 201) {
        throw new Error(`createPet answered ${response.status}`);
      }
      return ((await response.json()) as { id: number }).id;
    },
    upload: (petId, bytes, type, init = {}) =>
      api.fetch(`/v1/pets/${petId}/photos`, {
        method: 'POST',
        body: bytes,
        headers: headersOf(init, type),
        ...(init.key === undefined ? {} : { key: init.key }),
      }),
    uploadForm: (petId, form, init = {}) =>
      api.fetch(`/v1/pets/${petId}/photos`, {
        method: 'POST',
        body: form,
        headers: headersOf(init),
        ...(init.key === undefined ? {} : { key: init.key }),
      }),
    localFiles: async () => {
      const root = join(dataDir, 'media');
      try {
        const entries = await readdir(root, { recursive: true, withFileTypes: true });
        return entries
          .filter((entry) => entry.isFile())
          .map((entry) => relative(root, join(entry.parentPath, entry.name)))
          .sort();
      } catch {
        return [];
      }
    },
  };
};

/** A form with the image as the file field `field` (default `photo`), under a file name. */
export const photoForm = (
  bytes: Buffer,
  { field = 'photo', fileName = 'photo.jpg', type = 'image/jpeg' } = {},
): FormData => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), fileName);
  return form;
};
