import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { contract, Header } from '@pets/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AppModule, type TAppDependencies } from './app.module';
import { AppError } from './http/app-error';
import { BODY_LIMIT_BYTES, registerBodyParsers } from './http/body';
import { applySecurity, securityHeadersHook } from './http/security';
import { NestPinoLogger } from './logging/nest-logger';
import { GET_PET_DEPRECATION_HEADERS } from './modules/pets/deprecations';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { createRateLimitStore } from './rate-limit/rate-limit.store-factory';
import { DEFAULT_RATE_LIMIT_SETTINGS } from './rate-limit/rate-limit.types';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client's X-Request-Id when it is a sane token (it ends up in logs), else a new UUID. */
const requestId = (request: { headers: Record<string, string | string[] | undefined> }): string => {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
};

const GET_PET_ROUTE = contract.pets.getPet.path;

const registerHooks = (
  fastify: FastifyInstance,
  dependencies: TAppDependencies,
  app: NestFastifyApplication,
): void => {
  fastify.addHook('onRequest', (request, reply, done) => {
    securityHeadersHook(request, reply);
    // Every response of the deprecated operation announces it, errors (401, 429, 404) included.
    if (request.routeOptions.url === GET_PET_ROUTE) {
      reply.headers(GET_PET_DEPRECATION_HEADERS);
    }
    done();
  });

  // A /v1 request that matches no route never reaches the guards; it is still identified,
  // counted and given rate-limit headers, so that every /v1 response carries them.
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== undefined || !request.url.startsWith('/v1/')) {
      return;
    }
    const identity = await app.get(ApiKeysService).authenticate(request.headers.authorization);
    if (identity instanceof AppError) {
      request.authError = identity;
    } else {
      request.caller = identity;
    }
    await app.get(RateLimitGuard).limit(request, reply);
  });

  // Every response carries its request id, including those sent before our onRequest hooks run
  // (CORS preflights). Once shutdown has begun, a response ends its connection, so that
  // keep-alive connections do not hold the shutdown back; connections idle at that moment are
  // closed by the server itself.
  let isClosing = false;
  fastify.addHook('preClose', (done) => {
    isClosing = true;
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header(Header.requestId, request.id);
    if (isClosing) {
      reply.header('connection', 'close');
    }
    done(null, payload);
  });

  // One access line per request; the key appears only as its display start. The line holds only
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
        url: request.url,
        status: reply.statusCode,
        ip: request.ip,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        apiKey: request.caller?.start ?? null,
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
  });
  const rateLimitSettings = {
    ...DEFAULT_RATE_LIMIT_SETTINGS,
    redisKeyPrefix: dependencies.config.REDIS_KEY_PREFIX,
    ...dependencies.rateLimitSettings,
  };
  const rateLimitStore = await createRateLimitStore(
    dependencies.config,
    rateLimitSettings,
    dependencies.logger,
  );
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register({ ...dependencies, rateLimitStore, rateLimitSettings }),
    adapter,
    { bodyParser: false, abortOnError: false, logger: new NestPinoLogger(dependencies.logger) },
  );
  applySecurity(app, dependencies.config);
  const fastify = app.getHttpAdapter().getInstance();
  registerBodyParsers(fastify);
  registerHooks(fastify, dependencies, app);
  await app.init();
  return app;
};
