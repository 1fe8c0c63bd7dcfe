import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Inject,
} from '@nestjs/common';
import { BODY_LIMIT_TEXT, ERROR_STATUS, Header, type TErrorCode } from '@pets/contract';
import { RequestValidationError } from '@ts-rest/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../core/app-error';
import { LOGGER } from '../logging/logger';
import { redactUrl } from '../logging/redact-url';
import { RequestAborted } from './body';
import {
  classifyDatabaseError,
  DATABASE_RETRY_AFTER_SECONDS,
  databaseErrorResponse,
  describeDatabaseFault,
} from './database-faults';
import { allowedMethods } from './routes';
import { isV1Path, pathOf } from './v1-gate';
import { validationError } from './validation-error';

const CODE_BY_STATUS = new Map<number, TErrorCode>(
  (Object.entries(ERROR_STATUS) as [TErrorCode, number][])
    .filter(([code]) => code !== 'api_key_banned')
    .map(([code, status]) => [status, code]),
);

/** Fastify's own errors (body parsing, limits) by their `code`. */
const FASTIFY_ERRORS: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new AppError(
      'payload_too_large',
      `The request body is larger than the limit of ${BODY_LIMIT_TEXT}.`,
    ),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('unsupported_media_type', 'The request body must be application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('invalid_request', 'The Content-Length header does not match the body.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new AppError('invalid_request', 'The request body is empty; send a JSON object.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () =>
    new AppError('invalid_request', 'The request body is not valid JSON.'),
};

/** A code of the error or of its causes (at most a few levels down: a cycle must not hang us). */
const errorCode = (error: unknown, depth = 0): string | undefined => {
  if (typeof error !== 'object' || error === null || depth > 5) {
    return undefined;
  }
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === 'string' && code.startsWith('FST_')) {
    return code;
  }
  return cause ? errorCode(cause, depth + 1) : typeof code === 'string' ? code : undefined;
};

/** No route serves this method and path: 405 with Allow when the path has other methods, else 404. */
const noRoute = (request: FastifyRequest): AppError => {
  const path = request.url.split('?')[0] ?? request.url;
  const methods = allowedMethods(path);
  if (methods.length > 0) {
    return new AppError(
      'method_not_allowed',
      `${request.method} is not allowed on ${path}; use ${methods.join(', ')}.`,
      undefined,
      { Allow: methods.join(', ') },
    );
  }
  return new AppError('not_found', `No route ${request.method} ${path}. See /v1/openapi.json.`);
};

/**
 * Fastify refuses a QUERY request without Content-Type before it looks for a route; no route of
 * ours takes QUERY, so it is answered as any method no route has.
 */
const FASTIFY_REQUEST_ERRORS: Record<string, (request: FastifyRequest) => AppError> = {
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: noRoute,
};

const fromHttpException = (exception: HttpException, request: FastifyRequest): AppError => {
  const status = exception.getStatus();
  if (status === 404) {
    return noRoute(request);
  }
  const code = CODE_BY_STATUS.get(status) ?? (status >= 500 ? 'internal_error' : 'invalid_request');
  // The exception's own message is a library's (ours are AppErrors): never sent.
  const message =
    status >= 500
      ? 'Something went wrong on our side.'
      : 'The request cannot be processed as sent.';
  return new AppError(code, message);
};

/** Turns whatever was thrown into an AppError; null when it is an unexpected failure. */
/**
 * The answer of a /v1 request refused before the guard (by Fastify, or by its router): the
 * admission of unrouted requests runs first (AdmissionGuard.admitUnrouted, as `admitV1`), so its
 * 401 or 429 wins; else `refusal` itself. What nobody planned is a 500, given to `onUnexpected`.
 */
export const answerAfterAdmission = async (
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: AppError,
  onUnexpected?: (error: unknown) => void,
): Promise<AppError> => {
  try {
    await request.server.admitV1(request, reply);
    return refusal;
  } catch (error) {
    const answer =
      toAppError(error, request) ??
      new AppError('internal_error', 'Something went wrong on our side.');
    if (answer.status >= 500) {
      onUnexpected?.(error);
    }
    return answer;
  }
};

export const toAppError = (exception: unknown, request: FastifyRequest): AppError | null => {
  if (exception instanceof AppError) {
    return exception;
  }
  if (exception instanceof RequestValidationError) {
    return validationError({
      path: exception.pathParams,
      query: exception.query,
      body: exception.body,
    });
  }
  const code = errorCode(exception);
  const fastifyError = code ? FASTIFY_ERRORS[code] : undefined;
  if (fastifyError) {
    return fastifyError();
  }
  const fastifyRequestError = code ? FASTIFY_REQUEST_ERRORS[code] : undefined;
  if (fastifyRequestError) {
    return fastifyRequestError(request);
  }
  // Database outages (503 with Retry-After) and data PostgreSQL refused (400): database-faults.ts.
  const databaseError = databaseErrorResponse(exception);
  if (databaseError) {
    return databaseError;
  }
  if (exception instanceof HttpException) {
    return fromHttpException(exception, request);
  }
  return null;
};

/**
 * The last stop of every failure, including unknown routes, wrong methods, body-parser errors and
 * unexpected exceptions: the client gets the spec's error body with `status` equal to the HTTP
 * status and a documented code, and never a stack trace or a library's message.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // The client is gone (http/body.ts logged it at info): no one to answer, nothing failed.
    if (exception instanceof RequestAborted) {
      return;
    }
    const error =
      toAppError(exception, request) ??
      new AppError('internal_error', 'Something went wrong on our side.');

    const fault = error.status === 503 ? classifyDatabaseError(exception) : undefined;
    if (fault?.kind === 'unavailable') {
      // Expected during an outage, and one per request: one line, no stack trace.
      this.logger.warn(
        {
          reqId: request.id,
          method: request.method,
          url: redactUrl(request.url),
          fault: describeDatabaseFault(fault.fault),
        },
        'database unavailable',
      );
    } else if (error.status >= 500 && exception === error) {
      // A refusal of our own (`/readyz`'s 503, shutting down): expected, one line, no stack. The
      // error level and its stack are for what nobody planned: the 500s.
      this.logger.warn(
        {
          reqId: request.id,
          method: request.method,
          url: redactUrl(request.url),
          code: error.code,
          status: error.status,
          reason: error.message,
        },
        'request refused',
      );
    } else if (error.status >= 500) {
      this.logger.error(
        { err: exception, reqId: request.id, method: request.method, url: redactUrl(request.url) },
        'request failed',
      );
    }
    if (reply.sent) {
      return;
    }
    if (error.status < 500 && isV1Path(pathOf(request.url)) && !reply.hasHeader(rateLimitHeader)) {
      void this.admitThenSend(request, reply, error);
      return;
    }
    send(reply, error);
  }

  /**
   * A /v1 request refused before the guard ran (Fastify's 415 for a Content-Type it cannot
   * parse, a missing Host): 401 and 429 come first, as for every /v1 request.
   */
  private async admitThenSend(
    request: FastifyRequest,
    reply: FastifyReply,
    error: AppError,
  ): Promise<void> {
    const answer = await answerAfterAdmission(request, reply, error, (refusal) =>
      this.logger.error({ err: refusal, reqId: request.id }, 'request failed'),
    );
    if (!reply.sent) {
      send(reply, answer);
    }
  }
}

const rateLimitHeader = Header.rateLimitLimit;

const send = (reply: FastifyReply, error: AppError): void => {
  if (error.headers) {
    reply.headers(error.headers);
  }
  // Every 503 tells when to come back (the OpenAPI document requires it), whoever raised it.
  if (error.status === 503 && !reply.hasHeader('retry-after')) {
    reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  }
  reply.status(error.status).type('application/json; charset=utf-8').send(error.toBody());
};
