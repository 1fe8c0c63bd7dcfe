import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { conditionHeadersOf, type TConditionHeader, ZConditionHeader } from '@pets/contract';
import type { AppRoute } from '@ts-rest/core';
import { TsRestAppRouteMetadataKey } from '@ts-rest/nest';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { invalidRequest } from '../core/app-error';

/**
 * `If-None-Match` and `If-Match` within the length the OpenAPI document declares, on the
 * operations that read them (`conditionHeadersOf`, the document's rule): an empty or a longer one
 * is a `400` on `header.<Name>`, before the handler (a PATCH writes nothing). A global
 * interceptor, as the one of `Idempotency-Key`: after admission, so the key is checked and the
 * request counted first. What a value within the bounds names is the condition's to judge
 * (`conditionNames`, etag.ts).
 */
@Injectable()
export class ConditionHeadersInterceptor implements NestInterceptor {
  /** Per handler: the condition headers its operation reads. Read once per handler. */
  private readonly headers = new Map<unknown, TConditionHeader[]>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    for (const name of this.headersOf(context.getHandler())) {
      const value = request.headers[name.toLowerCase()];
      if (value === undefined) {
        continue;
      }
      const parsed = ZConditionHeader.safeParse(value);
      if (!parsed.success) {
        throw invalidRequest(`header.${name}`, parsed.error.issues[0]?.message ?? 'is invalid');
      }
    }
    return next.handle();
  }

  private headersOf(handler: unknown): TConditionHeader[] {
    let names = this.headers.get(handler);
    if (names === undefined) {
      const route = this.reflector.get<{ appRoute?: AppRoute } | undefined>(
        TsRestAppRouteMetadataKey,
        handler as () => unknown,
      )?.appRoute;
      names = route ? conditionHeadersOf(route) : [];
      this.headers.set(handler, names);
    }
    return names;
  }
}
