import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
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

export type TS3Settings = {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Both or neither; neither: the SDK's default chain (AWS_* variables, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

/**
 * An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, ...). Files are public through
 * MEDIA_BASE_URL (the bucket's public address or a CDN in front of it); each is written with its
 * type and the immutable Cache-Control, which S3 serves back as headers.
 */
export const createS3MediaStore = (settings: TS3Settings): TMediaStore & { close: () => void } => {
  const options: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where S3 requires them: the SDK's default (a CRC on every request) is not
    // understood by every S3-compatible service, and each upload's bytes are ours, in memory.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  const client = new S3Client(options);
  return {
    kind: 's3',
    put: async (key, bytes, contentType) => {
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          CacheControl: MEDIA_CACHE_CONTROL,
        }),
      );
    },
    delete: async (keys) => {
      if (keys.length === 0) {
        return;
      }
      const answer = await client.send(
        new DeleteObjectsCommand({
          Bucket: settings.bucket,
          Delete: { Objects: keys.map((key) => ({ Key: key })), Quiet: true },
        }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(`S3 did not delete ${failed.length} of ${keys.length} files`);
      }
    },
    close: () => client.destroy(),
  };
};

/** Nest's token for the store of this process (PhotosModule). */
export const MEDIA_STORE = Symbol('MEDIA_STORE');

/**
 * The store the configuration asks for: the bucket when S3_BUCKET is set, else DATA_DIR/media.
 * `close` releases the S3 client's connections.
 */
export const createMediaStore = (
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
): TMediaStore & { close: () => void } => {
  if (config.S3_BUCKET === undefined) {
    return { ...createLocalMediaStore(join(config.dataDir, 'media')), close: () => undefined };
  }
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
