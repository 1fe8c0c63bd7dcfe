import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { contract, Header } from '@pets/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppModule, type TAppDependencies } from './app.module';
import { AuthService } from './auth/auth.service';
import { callerOf, registerRequestIdentity } from './auth/identity';
import { BODY_LIMIT_BYTES, registerBodyParsers, UnusableBody } from './http/body';
import { ConnectionDrain, serverTimeoutOptions } from './http/connections';
import { applySecurity, securityHeadersHook } from './http/security';
import { NestPinoLogger } from './logging/nest-logger';
import { redactUrl } from './logging/redact-url';
import { getPetDeprecationHeaders } from './modules/pets/deprecations';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';

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

const registerHooks = (
  fastify: FastifyInstance,
  dependencies: TAppDependencies,
  app: NestFastifyApplication,
  drain: ConnectionDrain,
): void => {
  fastify.addHook('onRequest', (request, reply, done) => {
    securityHeadersHook(request, reply);
    // Every response of the deprecated operation announces it, errors (401, 429, 404) included.
    if (servedRoute(request) === GET_PET_ROUTE) {
      reply.headers(getPetDeprecationHeaders(request.params));
    }
    done();
  });

  // A /v1 request that no route serves never reaches the guards; it is still identified the same
  // way, counted and given rate-limit headers, so that every /v1 response carries them (its 404 or
  // 405 needs no key, as before).
  const auth = app.get(AuthService);
  const rateLimit = app.get(RateLimitGuard);
  fastify.addHook('onRequest', async (request, reply) => {
    if (servedRoute(request) !== undefined || !request.url.startsWith('/v1/')) {
      return;
    }
    await auth.identify(request);
    await rateLimit.limit(request, reply);
  });

  // Every response carries its request id, including those sent before our onRequest hooks run
  // (CORS preflights). Once shutdown has begun (the drain of main.ts, or app.close()), a response
  // ends its connection, so that keep-alive connections do not hold the shutdown back and no
  // client sends another request on them; idle connections are closed by the drain once quiet
  // (http/connections.ts). A request whose body was left partly unread (over
  // BODY_DRAIN_LIMIT_BYTES, http/body.ts) ends its connection too: the rest of that body cannot be
  // told from a next request.
  let isClosing = false;
  fastify.addHook('preClose', (done) => {
    isClosing = true;
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header(Header.requestId, request.id);
    if (
      isClosing ||
      drain.draining ||
      (request.body instanceof UnusableBody && request.body.unread)
    ) {
      reply.header('connection', 'close');
    }
    done(null, payload);
  });

  // One access line per request; the key appears only as its display start, and the address with
  // secret-bearing query parameters redacted (logging/redact-url.ts). The line holds only
  // the fields below, none of which a redaction path names, so it skips pino's redaction: with a
  // wildcard path that clones and walks every object logged, which was the largest single
  // allocation of a request (bench/README.md). Every other line is still redacted.
  const accessLog = dependencies.logger.child({}, { redact: [] });
  fastify.addHook('onResponse', (request: FastifyRequest, reply, done) => {
    accessLog.info(
      {
        reqId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ip: request.ip,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        apiKey: callerOf(request)?.start ?? null,
      },
      'request',
    );
    done();
  });
};

/** Builds the HTTP application (not yet listening) around dependencies built by the caller. */
export const createApp = async (
  dependencies: TAppDependencies,
): Promise<NestFastifyApplication> => {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestId,
    // The client's address (per-address rate limits, logs) and protocol (HSTS) as told by the
    // proxies we trust, and only those.
    trustProxy: dependencies.config.TRUST_PROXY,
    // Fastify's own 503 during shutdown has a body of its own: requests that still arrive on an
    // open connection are served instead, with `Connection: close` (see main.ts).
    return503OnClosing: false,
    // One rule for every path (docs/decisions.md): a trailing slash is ignored, so `/v1/pets/`
    // is `/v1/pets`, with its authentication, rate limit and answer.
    routerOptions: { ignoreTrailingSlash: true },
    // Slow clients: request, headers, keep-alive and connection timeouts (http/connections.ts).
    ...serverTimeoutOptions(dependencies.config),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(dependencies),
    adapter,
    { bodyParser: false, abortOnError: false, logger: new NestPinoLogger(dependencies.logger) },
  );
  applySecurity(app, dependencies.config);
  const fastify = app.getHttpAdapter().getInstance();
  const drain = new ConnectionDrain(app.getHttpServer(), dependencies.config, dependencies.logger);
  registerBodyParsers(fastify, dependencies.logger);
  registerRequestIdentity(fastify);
  registerHooks(fastify, dependencies, app, drain);
  await app.init();
  return app;
};
