import type { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import { PHOTO_FORM_FIELD, PHOTO_MEDIA_TYPES } from '@pets/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/app-error';
import { BODY_DRAIN_LIMIT_BYTES, RequestAborted } from './body';
import { timedOut } from './connections';

/**
 * An uploaded file, read whole: its bytes and nothing the client said about them (the declared
 * type and the file name are never used; the image pipeline reads the type from the bytes).
 * `canonical` of the idempotency hash (@pets/store/request-hash) reads `bytes` as its SHA-256.
 */
export class UploadedFile {
  constructor(readonly bytes: Buffer) {}
}

/**
 * The uploaded file of an upload route's handler (the contract types that body as a form, which
 * ts-rest does not parse: AdmissionGuard left an UploadedFile there).
 */
export const uploadedFileOf = (body: unknown): UploadedFile => {
  if (body instanceof UploadedFile) {
    return body;
  }
  throw unsupportedUpload();
};

/** Room for a multipart envelope around the file: boundaries, part headers, a few small fields. */
const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

const MULTIPART = 'multipart/form-data';

/** "10 MiB" */
const mebibytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

const tooLarge = (limit: number) =>
  new AppError(
    'payload_too_large',
    `The photo is larger than the limit of ${mebibytes(limit)}; send a smaller image.`,
  );

/** 415 for an upload whose Content-Type is neither an image type nor multipart (or missing). */
export const unsupportedUpload = () =>
  new AppError(
    'unsupported_media_type',
    `Send the photo as the request body with Content-Type ${PHOTO_MEDIA_TYPES.join(', ')}, or as ${MULTIPART} with one file in the field "${PHOTO_FORM_FIELD}".`,
  );

const mediaTypeOf = (request: FastifyRequest): string =>
  (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * The body of a photo upload, left unread by the parser (body.ts) until the guards have let the
 * request through: a caller without a valid key, or one rate limited, never makes the API read
 * (or hold in memory) up to 10 MiB. AdmissionGuard reads it (`read`) after the other guards.
 * Left unread (a 401 or 429), its connection is closed after the answer unless the rest is
 * small enough for Node to drain (app.ts, onSend).
 */
export class PendingUpload {
  private isConsumed = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly payload: Readable,
    /** The route's limit for the file (the contract's `bodyLimitBytes`). */
    private readonly limit: number,
  ) {
    payload.pause();
  }

  /** Whether the answer must close the connection: a body left on it that is not small. */
  get leavesBodyUnread(): boolean {
    if (this.isConsumed) {
      return false;
    }
    const declared = Number(this.request.headers['content-length']);
    return !(declared >= 0 && declared <= BODY_DRAIN_LIMIT_BYTES);
  }

  /**
   * The file, or an AppError: 415 for a type that is neither an image type nor multipart, 413
   * over the limit (told by Content-Length before reading, or counted while reading), 400 for a
   * form without its one photo. Reading stops at the limit: the rest stays unread and the
   * connection is closed after the answer.
   */
  async read(): Promise<UploadedFile> {
    this.isConsumed = true;
    const type = mediaTypeOf(this.request);
    const isMultipart = type === MULTIPART;
    if (!isMultipart && !(PHOTO_MEDIA_TYPES as readonly string[]).includes(type)) {
      this.isConsumed = false;
      throw unsupportedUpload();
    }
    const limit = isMultipart ? this.limit + MULTIPART_ENVELOPE_BYTES : this.limit;
    const declared = Number(this.request.headers['content-length']);
    if (declared > limit) {
      this.isConsumed = false;
      throw tooLarge(this.limit);
    }
    if (isMultipart) {
      return new UploadedFile(await this.readForm());
    }
    const bytes = await this.readRaw(limit);
    if (bytes.length === 0) {
      throw new AppError('invalid_request', 'The request body is empty; send the image in it.');
    }
    return new UploadedFile(bytes);
  }

  private readRaw(limit: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const cleanup = () => {
        this.payload.removeListener('data', onData);
        this.payload.removeListener('end', onEnd);
        this.payload.removeListener('error', onError);
      };
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) {
          cleanup();
          this.payload.pause();
          this.isConsumed = false;
          reject(tooLarge(this.limit));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        cleanup();
        resolve(Buffer.concat(chunks, received));
      };
      const onError = (error: Error) => {
        cleanup();
        reject(this.aborted(error));
      };
      this.payload.on('data', onData);
      this.payload.on('end', onEnd);
      this.payload.on('error', onError);
      this.payload.resume();
    });
  }

  private readForm(): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let busboy: InstanceType<typeof Busboy>;
      try {
        busboy = new Busboy({
          headers: this.request.headers as { 'content-type': string },
          limits: {
            files: 1,
            fileSize: this.limit,
            fields: 20,
            fieldSize: 1024,
            parts: 21,
          },
        });
      } catch {
        // A multipart type without a usable boundary.
        reject(new AppError('invalid_request', 'The multipart body has no valid boundary.'));
        return;
      }
      let file: Buffer | undefined;
      let failure: AppError | undefined;
      const fail = (error: AppError) => {
        failure ??= error;
      };
      busboy.on('file', (field: string, stream: BusboyFileStream) => {
        if (field !== PHOTO_FORM_FIELD) {
          fail(
            new AppError(
              'invalid_request',
              `Send the photo in the form field "${PHOTO_FORM_FIELD}", not "${field.slice(0, 40)}".`,
            ),
          );
          stream.resume();
          return;
        }
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () => fail(tooLarge(this.limit)));
        stream.on('end', () => {
          file = Buffer.concat(chunks);
        });
      });
      busboy.on('filesLimit', () =>
        fail(new AppError('invalid_request', 'Send one photo per request.')),
      );
      busboy.on('partsLimit', () =>
        fail(new AppError('invalid_request', 'The form has too many fields.')),
      );
      busboy.on('error', () => {
        this.payload.unpipe(busboy);
        this.isConsumed = false;
        reject(failure ?? new AppError('invalid_request', 'The multipart body is malformed.'));
      });
      busboy.on('finish', () => {
        if (failure) {
          reject(failure);
          return;
        }
        if (file === undefined || file.length === 0) {
          reject(
            new AppError(
              'invalid_request',
              `The form has no photo: send the image as a file in the field "${PHOTO_FORM_FIELD}".`,
            ),
          );
          return;
        }
        resolve(file);
      });
      this.payload.on('error', (error) => reject(this.aborted(error)));
      // The whole body is bounded too: a form of only fields can not grow forever.
      let received = 0;
      this.payload.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > this.limit + MULTIPART_ENVELOPE_BYTES) {
          this.payload.unpipe(busboy);
          this.payload.pause();
          this.isConsumed = false;
          reject(tooLarge(this.limit));
        }
      });
      this.payload.pipe(busboy);
    });
  }

  private aborted(error: Error): Error {
    const isGone = this.request.raw.destroyed || this.request.raw.socket?.destroyed === true;
    if (!isGone) {
      return error;
    }
    return new RequestAborted(timedOut(this.request.raw) ? 'request_timeout' : 'client_closed');
  }
}
