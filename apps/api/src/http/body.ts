import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';

/** Largest request body we read, documented in the contract and docs/errors.md. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * A body that could not be used. Parsing happens before guards run, so instead of failing there
 * (which would answer 400 to a caller without a valid key) the parser leaves this marker and the
 * request fails after authentication and rate limiting, with the right code.
 */
export class UnusableBody {
  constructor(readonly error: AppError) {}
}

/**
 * Replaces Fastify's parsers: JSON is parsed with Fastify's own safe parser (prototype poisoning
 * is rejected); malformed JSON, an empty JSON body and any other media type become an
 * UnusableBody. Bodies over BODY_LIMIT_BYTES are refused by Fastify itself (413).
 */
export const registerBodyParsers = (fastify: FastifyInstance): void => {
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');

  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, raw, done) => {
      const body = typeof raw === 'string' ? raw : raw.toString('utf8');
      if (body === '') {
        done(
          null,
          new UnusableBody(
            new AppError('invalid_request', 'The request body is empty; send a JSON object.'),
          ),
        );
        return;
      }
      parseJson(request, body, (error, value) => {
        done(
          null,
          error
            ? new UnusableBody(
                new AppError('invalid_request', 'The request body is not valid JSON.'),
              )
            : value,
        );
      });
    },
  );

  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (_request, _body, done) => {
      done(
        null,
        new UnusableBody(
          new AppError(
            'unsupported_media_type',
            'The request body must be sent as application/json.',
          ),
        ),
      );
    },
  );
};
