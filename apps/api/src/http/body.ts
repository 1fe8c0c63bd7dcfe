import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import type { TErrorCode } from '@pets/contract';
import { BODY_LIMIT_BYTES, BODY_LIMIT_TEXT } from '@pets/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { clientAddressOf } from '../auth/identity';
import { AppError } from '../core/app-error';
import { redactUrl } from '../logging/redact-url';
import { timedOut } from './connections';

/** The contract's limit, re-exported for the app's Fastify options (app.ts). */
export { BODY_LIMIT_BYTES };

/**
 * How much of a body over BODY_LIMIT_BYTES is still read (and thrown away) before the answer: a
 * client that sends up to this much gets its 401, 429 or 413 on a connection that stays open. Past
 * it the API stops reading and closes the connection after answering, so a client still sending
 * may see the connection reset instead of the answer (docs/api.md, "The operations").
 */
export const BODY_DRAIN_LIMIT_BYTES = 1024 * 1024;

/**
 * A body that could not be used. Parsing happens before guards run, so instead of failing there
 * (which would answer 400, 413 or 415 to a caller without a valid key, or to one already rate
 * limited) the parser leaves this marker and the request fails after authentication and rate
 * limiting (AdmissionGuard), with the right code. `unread`: the rest of the body was left on the
 * connection, which must then be closed after the answer, whatever it is (app.ts, onSend).
 */
export class UnusableBody {
  constructor(
    readonly error: AppError,
    readonly unread = false,
  ) {}
}

const tooLarge = (unread: boolean): UnusableBody =>
  new UnusableBody(
    new AppError(
      'payload_too_large',
      `The request body is larger than the limit of ${BODY_LIMIT_TEXT}.`,
    ),
    unread,
  );

/**
 * The body stopped arriving because the connection ended: the client went away (or was cut off
 * by the request timeout, which already answered 408). Nothing can be sent back; the exception
 * filter drops it without a response or an error line: this module logged it, once, at info.
 */
export class RequestAborted extends Error {
  constructor(readonly reason: 'client_closed' | 'request_timeout') {
    super('request aborted');
  }
}

/** One info line for a body that never arrived whole; no stack, it is not a failure of ours. */
const logAbort = (
  logger: Logger,
  request: FastifyRequest,
  aborted: RequestAborted,
  receivedBytes: number,
): void => {
  logger.info(
    {
      reqId: request.id,
      method: request.method,
      url: redactUrl(request.url),
      ip: clientAddressOf(request),
      reason: aborted.reason,
      receivedBytes,
      declaredBytes: Number(request.headers['content-length']) || null,
    },
    aborted.reason === 'request_timeout'
      ? 'request body not received in time: connection closed (408)'
      : 'request body aborted: the client closed the connection',
  );
};

type TDone = (error: Error | null, body?: unknown) => void;

/**
 * Reads a body of at most BODY_LIMIT_BYTES (into memory only when `keep`) and hands it to `use`.
 * A larger body is read and dropped up to BODY_DRAIN_LIMIT_BYTES and becomes a 413 marker; past
 * that (or when Content-Length already says so) reading stops and the marker says so.
 */
const readBody = (
  logger: Logger,
  request: FastifyRequest,
  payload: Readable,
  keep: boolean,
  use: (body: Buffer, done: TDone) => void,
  done: TDone,
): void => {
  const declared = Number(request.headers['content-length']);
  if (declared > BODY_DRAIN_LIMIT_BYTES) {
    done(null, tooLarge(true));
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;

  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
  };
  function onData(chunk: Buffer) {
    received += chunk.length;
    if (received <= BODY_LIMIT_BYTES) {
      if (keep) {
        chunks.push(chunk);
      }
    } else if (received > BODY_DRAIN_LIMIT_BYTES) {
      stop();
      payload.pause();
      done(null, tooLarge(true));
    } else if (chunks.length > 0) {
      chunks.length = 0;
    }
  }
  function onEnd() {
    stop();
    if (received > BODY_LIMIT_BYTES) {
      done(null, tooLarge(false));
      return;
    }
    use(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received), done);
  }
  // Node ends the body of a request whose connection closed with ECONNRESET "aborted"; that is
  // the client's doing (or the timeout's), never a fault of ours or of the database.
  const isAborted = () => request.raw.destroyed || request.raw.socket?.destroyed === true;
  const abort = () => {
    const aborted = new RequestAborted(timedOut(request.raw) ? 'request_timeout' : 'client_closed');
    logAbort(logger, request, aborted, received);
    done(aborted);
  };
  function onError(error: Error) {
    stop();
    if (isAborted()) {
      abort();
      return;
    }
    done(error);
  }

  // Gone before the body was even looked at (while earlier hooks ran): no event will come.
  if (payload.destroyed && isAborted()) {
    abort();
    return;
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
};

/**
 * For an upload route (a photo), the body left unread as a marker that AdmissionGuard reads
 * after the guards, with the route's own limit (http/upload-body.ts); undefined elsewhere.
 */
export type TDeferUpload = (request: FastifyRequest, payload: Readable) => object | undefined;

/**
 * Replaces Fastify's parsers: JSON is parsed with Fastify's own safe parser (prototype poisoning
 * is rejected); malformed JSON, an empty JSON body, any other media type and a body over
 * BODY_LIMIT_BYTES become an UnusableBody, except on an upload route (`deferUpload`), whose body
 * is read after the guards with its own limit. Fastify's own size check is not used: it answers 413
 * before authentication and closes the connection on a client that is still sending.
 */
export const registerBodyParsers = (
  fastify: FastifyInstance,
  logger: Logger,
  deferUpload?: TDeferUpload,
): void => {
  fastify.removeAllContentTypeParsers();
  /** An upload route's body, left unread until admission has passed (http/upload-body.ts). */
  const isDeferred = (
    request: FastifyRequest,
    payload: Readable,
    done: (error: Error | null, body?: unknown) => void,
  ): boolean => {
    const deferred = deferUpload?.(request, payload);
    if (deferred === undefined) {
      return false;
    }
    done(null, deferred);
    return true;
  };
  /**
   * Parses bodies of `contentType`: an upload route's is deferred, any other read whole (kept when
   * `keep`) and handed to `use`, which answers the value or an UnusableBody.
   */
  const parseBodies = (
    contentType: string,
    keep: boolean,
    use: (request: FastifyRequest, body: Buffer, parsed: TDone) => void,
  ): void => {
    fastify.addContentTypeParser(contentType, (request, payload, done) => {
      if (!isDeferred(request, payload, done)) {
        readBody(logger, request, payload, keep, (raw, parsed) => use(request, raw, parsed), done);
      }
    });
  };
  const unusable = (code: TErrorCode, message: string): UnusableBody =>
    new UnusableBody(new AppError(code, message));
  const parseJson = fastify.getDefaultJsonParser('error', 'error');

  parseBodies('application/json', true, (request, raw, parsed) => {
    // JSON text is UTF-8 (RFC 8259, 8.1): bytes that are not would be stored as U+FFFD.
    if (!isUtf8(raw)) {
      parsed(
        null,
        unusable(
          'invalid_request',
          'The request body is not valid UTF-8; send JSON encoded as UTF-8.',
        ),
      );
      return;
    }
    const body = raw.toString('utf8');
    if (body === '') {
      parsed(null, unusable('invalid_request', 'The request body is empty; send a JSON object.'));
      return;
    }
    parseJson(request, body, (error, value) => {
      parsed(
        null,
        error ? unusable('invalid_request', 'The request body is not valid JSON.') : value,
      );
    });
  });

  parseBodies('*', false, (_request, _raw, parsed) => {
    parsed(
      null,
      unusable('unsupported_media_type', 'The request body must be sent as application/json.'),
    );
  });
};
