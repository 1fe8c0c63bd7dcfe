import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { AppError } from './app-error';
import { UnusableBody } from './body';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Runs after the guards and before the contract's validation: reports a body that could not be
 * parsed, or a missing one where the operation needs it, with a message a developer can act on.
 */
@Injectable()
export class BodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.body instanceof UnusableBody) {
      throw request.body.error;
    }
    if (METHODS_WITH_BODY.has(request.method) && request.body === undefined) {
      throw new AppError(
        'invalid_request',
        'A JSON body is required: send it with Content-Type: application/json.',
      );
    }
    return next.handle();
  }
}
