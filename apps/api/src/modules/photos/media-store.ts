import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { TConfig } from '../../config';

/**
 * The only file keys the API writes (image-pipeline.ts): `pets/<animal id>/<16 hex>-<width>.webp`.
 * Anything else is not a file of ours: the local store refuses to read it, which is also what
 * keeps a request for `/media/../../etc/passwd` (or its encodings) from reaching the disk.
 */
export const MEDIA_KEY_PATTERN = /^pets\/[1-9][0-9]{0,15}\/[0-9a-f]{16}-[1-9][0-9]{0,4}\.webp$/;

/** Every stored file is written once under a name that changes with its content: cache forever. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export type TMediaFile = { stream: Readable; size: number; contentType: string };

/** Where photo files live: on the API's disk (`DATA_DIR/media`) or in an S3-compatible bucket. */
export type TMediaStore = {
  readonly kind: 'local' | 's3';
  /** Writes a file; a key is written once and never changed. */
  put: (key: string, bytes: Buffer, contentType: string) => Promise<void>;
  /** Removes files; a key already gone is not an error. */
  delete: (keys: readonly string[]) => Promise<void>;
  /** Local store only: a file to serve at `/media/<key>`, or undefined. */
  read?: (key: string) => Promise<TMediaFile | undefined>;
};

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp' };

/**
 * Files under one folder (`DATA_DIR/media`, the embedded default, and a single API process with
 * a DATABASE_URL and no bucket). Each file is written to a temporary name and renamed, so a
 * reader never sees half a file.
 */
export const createLocalMediaStore = (root: string): TMediaStore => {
  const pathOf = (key: string): string | undefined => {
    if (!MEDIA_KEY_PATTERN.test(key)) {
      return undefined;
    }
    const path = join(root, ...key.split('/'));
    // The pattern already allows no `..`; this holds even if it is ever loosened.
    return path.startsWith(root + sep) ? path : undefined;
  };
  return {
    kind: 'local',
    put: async (key, bytes) => {
      const path = pathOf(key);
      if (!path) {
        throw new Error('not a media key');
      }
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.${Date.now()}.partial`;
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    },
    delete: async (keys) => {
      await Promise.all(
        keys.map(async (key) => {
          const path = pathOf(key);
          if (path) {
            await rm(path, { force: true });
          }
        }),
      );
    },
    read: async (key) => {
      const path = pathOf(key);
      if (!path) {
        return undefined;
      }
      try {
        const info = await stat(path);
        if (!info.isFile()) {
          return undefined;
        }
        const extension = key.slice(key.lastIndexOf('.') + 1);
        return {
          stream: createReadStream(path),
          size: info.size,
          contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
        };
      } catch {
        return undefined;
      }
    },
  };
};

/** Nest's token for the store of this process (PhotosModule). */
export const MEDIA_STORE = Symbol('MEDIA_STORE');

/**
 * The store the configuration asks for: the bucket when S3_BUCKET is set, else DATA_DIR/media.
 * `close` releases the S3 client's connections. The AWS SDK is loaded only for a bucket: loaded
 * at start it added ~35 MB to the resident memory of every API process, bucket or not.
 */
export const createMediaStore = async (
  config: Pick<
    TConfig,
    | 'dataDir'
    | 'S3_BUCKET'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'S3_FORCE_PATH_STYLE'
  >,
): Promise<TMediaStore & { close: () => void }> => {
  if (config.S3_BUCKET === undefined) {
    return { ...createLocalMediaStore(join(config.dataDir, 'media')), close: () => undefined };
  }
  const { createS3MediaStore } = await import('./s3-media-store.js');
  return createS3MediaStore({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
  });
};
