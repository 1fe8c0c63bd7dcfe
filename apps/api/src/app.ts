import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { contract, Header } from '@pets/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppModule, type TAppDependencies } from './app.module';
import { BODY_LIMIT_BYTES, registerBodyParsers } from './http/body';
import { NestPinoLogger } from './logging/nest-logger';
import { GET_PET_DEPRECATION_HEADERS } from './modules/pets/deprecations';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client's X-Request-Id when it is a sane token (it ends up in logs), else a new UUID. */
const requestId = (request: { headers: Record<string, string | string[] | undefined> }): string => {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
};

const GET_PET_ROUTE = contract.pets.getPet.path;

const registerHooks = (fastify: FastifyInstance, dependencies: TAppDependencies): void => {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(Header.requestId, request.id);
    // Every response of the deprecated operation announces it, errors (401, 429, 404) included.
    if (request.routeOptions.url === GET_PET_ROUTE) {
      reply.headers(GET_PET_DEPRECATION_HEADERS);
    }
    done();
  });

  // One access line per request; the key appears only as its display start.
  fastify.addHook('onResponse', (request: FastifyRequest, reply, done) => {
    dependencies.logger.info(
      {
        reqId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: request.url,
        status: reply.statusCode,
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
    return503OnClosing: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(dependencies),
    adapter,
    {
      bodyParser: false,
      logger: new NestPinoLogger(dependencies.logger),
    },
  );
  const fastify = app.getHttpAdapter().getInstance();
  registerBodyParsers(fastify);
  registerHooks(fastify, dependencies);
  await app.init();
  return app;
};
