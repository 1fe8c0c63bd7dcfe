import {
  DeleteObjectsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { MEDIA_CACHE_CONTROL, type TMediaStore } from './media-store';

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
