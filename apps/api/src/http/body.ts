import type { Readable } from 'node:stream';
import { BODY_LIMIT_BYTES, BODY_LIMIT_TEXT } from '@pets/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error';

/** The contract's limit, re-exported for the app's Fastify options (app.ts). */
export { BODY_LIMIT_BYTES };

/**
 * How much of a body over BODY_LIMIT_BYTES is still read (and thrown away) before the answer: a
 * client that sends up to this much gets its 401, 429 or 413 on a connection that stays open. Past
 * it the API stops reading and closes the connection after answering, so a client still sending
 * may see the connection reset instead of the answer (README, "Using the API").
 */
export const BODY_DRAIN_LIMIT_BYTES = 1024 * 1024;

/**
 * A body that could not be used. Parsing happens before guards run, so instead of failing there
 * (which would answer 400, 413 or 415 to a caller without a valid key, or to one already rate
 * limited) the parser leaves this marker and the request fails after authentication and rate
 * limiting (BodyInterceptor), with the right code. `unread`: the rest of the body was left on the
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

type TDone = (error: Error | null, body?: unknown) => void;

/**
 * Reads a body of at most BODY_LIMIT_BYTES (into memory only when `keep`) and hands it to `use`.
 * A larger body is read and dropped up to BODY_DRAIN_LIMIT_BYTES and becomes a 413 marker; past
 * that (or when Content-Length already says so) reading stops and the marker says so.
 */
const readBody = (
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
  function onError(error: Error) {
    stop();
    done(error);
  }

  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
};

/**
 * Replaces Fastify's parsers: JSON is parsed with Fastify's own safe parser (prototype poisoning
 * is rejected); malformed JSON, an empty JSON body, any other media type and a body over
 * BODY_LIMIT_BYTES become an UnusableBody. Fastify's own size check is not used: it answers 413
 * before authentication and closes the connection on a client that is still sending.
 */
export const registerBodyParsers = (fastify: FastifyInstance): void => {
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');

  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    readBody(
      request,
      payload,
      true,
      (raw, parsed) => {
        const body = raw.toString('utf8');
        if (body === '') {
          parsed(
            null,
            new UnusableBody(
              new AppError('invalid_request', 'The request body is empty; send a JSON object.'),
            ),
          );
          return;
        }
        parseJson(request, body, (error, value) => {
          parsed(
            null,
            error
              ? new UnusableBody(
                  new AppError('invalid_request', 'The request body is not valid JSON.'),
                )
              : value,
          );
        });
      },
      done,
    );
  });

  fastify.addContentTypeParser('*', (request, payload, done) => {
    readBody(
      request,
      payload,
      false,
      (_raw, parsed) => {
        parsed(
          null,
          new UnusableBody(
            new AppError(
              'unsupported_media_type',
              'The request body must be sent as application/json.',
            ),
          ),
        );
      },
      done,
    );
  });
};
