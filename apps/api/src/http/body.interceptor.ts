import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppRoute } from '@ts-rest/core';
import { TsRestAppRouteMetadataKey } from '@ts-rest/nest';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { AppError } from './app-error';
import { UnusableBody } from './body';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Runs after the guards and before the contract's validation: reports a body that could not be
 * parsed, or a missing one where the operation needs it, with a message a developer can act on.
 * An operation whose contract declares no body (the order transitions, `c.noBody()`) needs none.
 */
@Injectable()
export class BodyInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const needsBody = this.needsBody(context);
    // An operation without a body ignores whatever came (an empty JSON body from a client that
    // always sends Content-Type, say), except a body over the limit: that is still a 413.
    if (
      request.body instanceof UnusableBody &&
      (needsBody || request.body.error.code === 'payload_too_large')
    ) {
      throw request.body.error;
    }
    if (METHODS_WITH_BODY.has(request.method) && request.body === undefined && needsBody) {
      throw new AppError(
        'invalid_request',
        'A JSON body is required: send it with Content-Type: application/json.',
      );
    }
    return next.handle();
  }

  private needsBody(context: ExecutionContext): boolean {
    const route = this.reflector.get<{ appRoute?: AppRoute } | undefined>(
      TsRestAppRouteMetadataKey,
      context.getHandler(),
    )?.appRoute;
    return !(route && 'body' in route && typeof route.body === 'symbol');
  }
}
