import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  CONTRACT_ROUTES,
  Header,
  IDEMPOTENCY_KEY_HEADER,
  type TRouteMetadata,
  ZIdempotencyKey,
} from '@pets/contract';
import type { TStoredResponse } from '@pets/store/idempotency.repository';
import { requestHash } from '@pets/store/request-hash';
import { type AppRoute, isZodType } from '@ts-rest/core';
import { TsRestAppRouteMetadataKey } from '@ts-rest/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import { callerOf } from '../auth/identity';
import { invalidRequest } from '../core/app-error';
import { toAppError } from '../http/exception.filter';
import { IdempotencyService } from './idempotency.service';

/**
 * `Idempotency-Key` on every operation that the contract marks idempotent (`idempotent(...)` in
 * its router, packages/contract/src/routers/idempotent.ts): nothing to add to a controller.
 *
 * A global interceptor, so it runs after the guards, AdmissionGuard included (the key is
 * known, the request counted by the rate limiter: a replay is a request like any other) and
 * before ts-rest's validation and the handler:
 *
 * 1. No header, or an operation that is not idempotent (a GET): the request goes on untouched.
 * 2. A bad header: `400` on `header.Idempotency-Key`. Input that the contract will refuse: the
 *    request goes on to that `400`, and nothing is stored (as Stripe: a request that never ran
 *    is not an answer to keep).
 * 3. Otherwise IdempotencyService.start claims the key in PostgreSQL, or replays the stored
 *    response (marked `Idempotent-Replayed: true`), or answers 422 / waits / 409.
 * 4. The claimed request runs; its answer, success or the handler's own `4xx`, is stored before
 *    it is sent. A `5xx` is not stored: the key is released and a retry runs the operation.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  /** Per handler: the idempotent operation it serves, or null. Read once per handler. */
  private readonly operations = new Map<unknown, TIdempotentOperation | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly idempotency: IdempotencyService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers[HEADER_KEY];
    if (header === undefined) {
      return next.handle();
    }
    const operation = this.operationOf(context.getHandler());
    const caller = callerOf(request);
    if (!operation || !caller) {
      return next.handle();
    }
    const parsed = ZIdempotencyKey.safeParse(header);
    if (!parsed.success) {
      throw invalidRequest(HEADER_FIELD, parsed.error.issues[0]?.message ?? 'is invalid');
    }
    if (!operation.accepts(request)) {
      return next.handle();
    }
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const scope = { apiKeyId: caller.apiKeyId, operation: operation.name, key: parsed.data };
    const hash = requestHash({
      method: request.method,
      route: operation.route.path,
      params: request.params,
      body: request.body,
    });
    return from(this.idempotency.start(scope, hash)).pipe(
      mergeMap((start) => {
        if (start.kind === 'replay') {
          return of(replay(reply, start.response));
        }
        return next.handle().pipe(
          mergeMap(async (body: unknown) => {
            await this.idempotency.complete(start.id, {
              status: reply.statusCode,
              headers: storedHeaders(reply),
              body: JSON.stringify(body),
            });
            return body;
          }),
          catchError((error: unknown) => {
            const answer = toAppError(error, request);
            const settled =
              answer && answer.status < 500
                ? this.idempotency.complete(start.id, {
                    status: answer.status,
                    headers: { ...answer.headers, 'Content-Type': JSON_TYPE },
                    body: JSON.stringify(answer.toBody()),
                  })
                : this.idempotency.release(start.id);
            return from(settled).pipe(mergeMap(() => throwError(() => error)));
          }),
        );
      }),
    );
  }

  private operationOf(handler: unknown): TIdempotentOperation | null {
    let operation = this.operations.get(handler);
    if (operation === undefined) {
      const metadata = this.reflector.get<{ appRoute?: AppRoute } | undefined>(
        TsRestAppRouteMetadataKey,
        handler as () => unknown,
      );
      operation = metadata?.appRoute ? idempotentOperation(metadata.appRoute) : null;
      this.operations.set(handler, operation);
    }
    return operation;
  }
}

/** Node reads header names in lower case. */
const HEADER_KEY = IDEMPOTENCY_KEY_HEADER.toLowerCase();
/** The `field` of a bad header in a 400's details, as `query.<name>` for a query parameter. */
const HEADER_FIELD = `header.${IDEMPOTENCY_KEY_HEADER}`;
/** What Fastify sends with a JSON body, and what the exception filter sets. */
const JSON_TYPE = 'application/json; charset=utf-8';
/** The response headers a replay repeats; the others describe the retry itself (rate limit, id). */
const STORED_HEADERS = ['Content-Type', Header.location] as const;

type TIdempotentOperation = {
  name: string;
  route: AppRoute;
  /** Whether the contract's validation will let the request through to the handler. */
  accepts: (request: FastifyRequest) => boolean;
};

const NAMES = new Map(CONTRACT_ROUTES.map(({ name, route }) => [route, name]));

const idempotentOperation = (route: AppRoute): TIdempotentOperation | null => {
  if (!(route.metadata as TRouteMetadata | undefined)?.idempotent) {
    return null;
  }
  const checks: [keyof FastifyRequest, unknown][] = [
    ['params', route.pathParams],
    ['query', route.query],
    ['body', 'body' in route ? route.body : undefined],
  ];
  const schemas = checks.filter(([, schema]) => isZodType(schema));
  return {
    name: NAMES.get(route) ?? `${route.method} ${route.path}`,
    route,
    accepts: (request) =>
      schemas.every(
        ([field, schema]) =>
          (schema as { safeParse: (value: unknown) => { success: boolean } }).safeParse(
            request[field],
          ).success,
      ),
  };
};

const storedHeaders = (reply: FastifyReply): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) {
      headers[name] = String(value);
    }
  }
  headers['Content-Type'] ??= JSON_TYPE;
  return headers;
};

/** Sends the stored response again: its status, headers and body, marked as a replay. */
const replay = (reply: FastifyReply, response: TStoredResponse): unknown => {
  reply.status(response.status);
  reply.headers(response.headers);
  reply.header(Header.idempotentReplayed, 'true');
  return JSON.parse(response.body);
};
