import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { contract, Header } from '@pets/contract';
import type { TTrustedProxies } from '@pets/contract/rules';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdmissionGuard } from './admission/admission.guard';
import { AppModule, type TAppDependencies } from './app.module';
import { callerOf, clientAddressOf, registerRequestIdentity } from './auth/identity';
import { AppError } from './core/app-error';
import { BODY_LIMIT_BYTES, registerBodyParsers, UnusableBody } from './http/body';
import { ConnectionDrain, serverTimeoutOptions } from './http/connections';
import { withEtag } from './http/etag';
import { answerAfterAdmission } from './http/exception.filter';
import { honourExpectContinue, lingerAfterAnswer } from './http/lingering-close';
import {
  clientErrorHandler,
  ignoreUnknownExpectations,
  refuseConnect,
} from './http/malformed-http';
import { applySecurity, securityHeadersHook } from './http/security';
import { PendingUpload } from './http/upload-body';
import { LARGEST_UPLOAD_BYTES, uploadLimitOf } from './http/upload-routes';
import { registerV1Gate, type TV1Gate } from './http/v1-gate';
import { NestPinoLogger } from './logging/nest-logger';
import { redactUrl } from './logging/redact-url';
import { getPetDeprecationHeaders } from './modules/pets/deprecations';
import { UsageCounter } from './usage/usage-counter';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client's X-Request-Id when it is a sane token (it ends up in logs), else a new UUID. */
const requestId = (request: { headers: Record<string, string | string[] | undefined> }): string => {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
};

const GET_PET_ROUTE = contract.pets.getPet.path;

/**
 * The route that will serve the request, or undefined when none will: no route matched, or one
 * matched with an empty parameter (`/v1/pets//` is `/v1/pets/` once the trailing slash is ignored,
 * which the router matches as getPet with an empty id), which Nest's adapter hands to the
 * not-found handler before any guard runs. Nest's adapter runs the same loop over the parameters.
 */
const servedRoute = (request: FastifyRequest): string | undefined => {
  const params = request.params as Record<string, string>;
  for (const name in params) {
    if (params[name] === '') {
      return undefined;
    }
  }
  return request.routeOptions.url;
};

/** HTTP/1.1 requires Host (RFC 9112, 3.2); HTTP/1.0 clients may leave it out. */
const missingHost = (request: FastifyRequest): AppError | undefined =>
  request.headers.host === undefined && request.raw.httpVersion !== '1.0'
    ? new AppError('invalid_request', 'An HTTP/1.1 request must carry a Host header.')
    : undefined;

type TSecurityHookHolder = {
  securityHook?: (request: FastifyRequest, response: FastifyReply['raw']) => unknown;
};

/**
 * Node keeps the first of several `Authorization` headers and drops the rest, so which key a
 * request uses would depend on the order of its headers: refused instead (after identification and
 * rate limiting, like any bad request: the exception filter's gate). Node keeps every raw header,
 * a short array walked once.
 */
const duplicateAuthorization = (request: FastifyRequest): AppError | undefined => {
  const raw = request.raw.rawHeaders;
  let seen = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === 13 && name.toLowerCase() === 'authorization') {
      seen += 1;
    }
  }
  return seen > 1
    ? new AppError(
        'invalid_request',
        'The request carries several Authorization headers; send exactly one: Bearer <key>.',
      )
    : undefined;
};

/** The router's refusals, which Fastify hands to `frameworkErrors` before any hook runs. */
const FRAMEWORK_ERRORS: Record<string, () => AppError> = {
  FST_ERR_BAD_URL: () =>
    new AppError(
      'invalid_request',
      'The path is not valid: a percent-encoded sequence in it is not UTF-8.',
    ),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new AppError('invalid_request', 'The path is not valid: a segment of it is too long.'),
};

/**
 * Answers a request the router refused. Fastify runs no hook for it, so this sets what our hooks
 * would (security headers, the request id) and goes through the /v1 gate itself.
 */
const answerFrameworkError = async (
  adapter: FastifyAdapter,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> => {
  // The hook of app.useSecurityHeaders(), which Nest's own frameworkErrors handler (replaced by
  // this one) runs for the same reason.
  try {
    (adapter as unknown as TSecurityHookHolder).securityHook?.(request, reply.raw);
  } catch {
    // The request is refused either way; its params are null, which a hook may not expect.
  }
  securityHeadersHook(request, reply);
  reply.header(Header.requestId, request.id);
  const answer = await answerAfterAdmission(
    request,
    reply,
    FRAMEWORK_ERRORS[error.code]?.() ??
      new AppError('invalid_request', 'The request could not be routed.'),
  );
  if (answer.headers) {
    reply.headers(answer.headers);
  }
  reply.status(answer.status).type('application/json; charset=utf-8').send(answer.toBody());
};

const registerHooks = (
  fastify: FastifyInstance,
  dependencies: TAppDependencies,
  app: NestFastifyApplication,
  drain: ConnectionDrain,
): void => {
  fastify.addHook('onRequest', (request, reply, done) => {
    securityHeadersHook(request, reply);
    // Every response of the deprecated operation announces it, errors (401, 429, 404) included;
    // the path alone is not the operation: PATCH on it is updatePet, which is not deprecated.
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      servedRoute(request) === GET_PET_ROUTE
    ) {
      reply.headers(getPetDeprecationHeaders(request.params));
    }
    done(missingHost(request) ?? duplicateAuthorization(request));
  });

  // A /v1 request that no route serves never reaches the guard; it gets the same admission:
  // identified, counted, given rate-limit headers, 401 without a valid key, and only then its 404
  // or 405 (AdmissionGuard.admitUnrouted; a CORS preflight and the OpenAPI document need no key).
  const admission = app.get(AdmissionGuard);
  const gate: TV1Gate = (request, reply) => admission.admitUnrouted(request, reply);
  registerV1Gate(fastify, gate);
  fastify.addHook('onRequest', async (request, reply) => {
    if (servedRoute(request) === undefined) {
      await gate(request, reply);
    }
  });

  // Every response carries its request id, including those sent before our onRequest hooks run
  // (CORS preflights). Once shutdown has begun (the drain of main.ts, or app.close()), a response
  // ends its connection, so that keep-alive connections do not hold the shutdown back and no
  // client sends another request on them; idle connections are closed by the drain once quiet
  // (http/connections.ts). A request whose body was left partly unread (over
  // BODY_DRAIN_LIMIT_BYTES, http/body.ts), or a photo upload left unread or cut off at its limit
  // (http/upload-body.ts), ends its connection too: the rest of that body cannot be told from a
  // next request.
  let isClosing = false;
  fastify.addHook('preClose', (done) => {
    isClosing = true;
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header(Header.requestId, request.id);
    const leavesBodyUnread =
      (request.body instanceof UnusableBody && request.body.unread) ||
      (request.body instanceof PendingUpload && request.body.leavesBodyUnread);
    if (isClosing || drain.draining || leavesBodyUnread) {
      reply.header('connection', 'close');
    }
    if (leavesBodyUnread) {
      // The client may still be sending: read and drop the rest (bounded) before closing, so that
      // it receives this answer rather than a reset (http/lingering-close.ts).
      lingerAfterAnswer(request.raw);
    }
    done(null, withEtag(request, reply, payload));
  });

  // One access line per request; the key appears only as its display start, and the address with
  // secret-bearing query parameters redacted (logging/redact-url.ts). The line holds only
  // the fields below, none of which a redaction path names, so it skips pino's redaction: with a
  // wildcard path that clones and walks every object logged, which was the largest single
  // allocation of a request (bench/README.md). Every other line is still redacted.
  // In production (main.ts) it has an asynchronous buffered destination of its own: one write per
  // few kilobytes of lines instead of one per request.
  // The same hook counts each key's answered requests (usage/usage-counter.ts): two map writes,
  // written to the database in batches. Requests refused before a key was identified have no
  // caller and are not counted; a valid key's 429s are.
  const accessLog = (dependencies.accessLogger ?? dependencies.logger).child({}, { redact: [] });
  const usage = app.get(UsageCounter);
  fastify.addHook('onResponse', (request: FastifyRequest, reply, done) => {
    const caller = callerOf(request);
    if (caller !== null) {
      usage.count(caller.apiKeyId, reply.statusCode, Date.now());
    }
    accessLog.info(
      {
        reqId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ip: clientAddressOf(request),
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        apiKey: caller?.start ?? null,
      },
      'request',
    );
    done();
  });
};

/**
 * TRUSTED_PROXIES in Fastify's terms. A hop count becomes proxy-addr's own reading of one (the N
 * hops nearest the server, whoever they are), as a function: Fastify 5.12 takes a bare number as
 * "trust nobody", since a count cannot tell the proxy from a client that connects directly. That
 * is the operator's promise in choosing a count: nothing but the chain of proxies reaches the API
 * (docs/decisions.md, "TRUSTED_PROXIES").
 */
const fastifyTrustProxy = (
  trusted: TTrustedProxies,
): false | string[] | ((address: string, hop: number) => boolean) =>
  typeof trusted === 'number' ? (_address, hop) => hop < trusted : trusted;

/** Builds the HTTP application (not yet listening) around dependencies built by the caller. */
export const createApp = async (
  dependencies: TAppDependencies,
): Promise<NestFastifyApplication> => {
  const timeouts = serverTimeoutOptions(dependencies.config);
  const adapter: FastifyAdapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestId,
    // The client's address (per-address rate limits, logs) and protocol (HSTS) as told by the
    // proxies we trust, and only those.
    trustProxy: fastifyTrustProxy(dependencies.config.TRUSTED_PROXIES),
    // Fastify's own 503 during shutdown has a body of its own: requests that still arrive on an
    // open connection are served instead, with `Connection: close` (see main.ts).
    return503OnClosing: false,
    // One rule for every path (docs/decisions.md): a trailing slash is ignored, so `/v1/pets/`
    // is `/v1/pets`, with its authentication, rate limit and answer. No path parameter is too
    // long for the router (its default, 100 characters, answered Fastify's own 414): the request
    // line's limit bounds them, and the contract's schema answers a long id like any bad one.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    // The router's refusals (a percent-encoding that is not UTF-8) in the spec's error body, after
    // authentication and rate limiting like every /v1 answer.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      void answerFrameworkError(adapter, error, request, reply);
    },
    // Requests Node's parser refuses, in the spec's error body (http/malformed-http.ts).
    clientErrorHandler,
    // Slow clients: request, headers, keep-alive and connection timeouts (http/connections.ts).
    ...timeouts,
    // A missing Host is answered by our onRequest hook (400 in the error body) instead of by
    // Node, whose 400 has no body.
    http: { ...timeouts.http, requireHostHeader: false },
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(dependencies),
    adapter,
    { bodyParser: false, abortOnError: false, logger: new NestPinoLogger(dependencies.logger) },
  );
  applySecurity(app, dependencies.config);
  const fastify = app.getHttpAdapter().getInstance();
  const drain = new ConnectionDrain(app.getHttpServer(), dependencies.config, dependencies.logger);
  registerBodyParsers(fastify, dependencies.logger, (request, payload) => {
    const limit = uploadLimitOf(request);
    return limit === undefined ? undefined : new PendingUpload(request, payload, limit);
  });
  registerRequestIdentity(fastify);
  registerHooks(fastify, dependencies, app, drain);
  ignoreUnknownExpectations(app.getHttpServer());
  // A multipart form may carry up to 64 KiB around its file (http/upload-body.ts).
  honourExpectContinue(app.getHttpServer(), LARGEST_UPLOAD_BYTES + 64 * 1024);
  refuseConnect(app.getHttpServer());
  await app.init();
  return app;
};
