import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppRoute } from '@ts-rest/core';
import { TsRestAppRouteMetadataKey } from '@ts-rest/nest';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error';
import { UnusableBody } from './body';
import { PendingUpload, unsupportedUpload } from './upload-body';
import { isUploadRoute } from './upload-routes';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The last guard, after AccessGuard and before the interceptors and the contract's validation:
 * reports a body that could not be parsed, or a missing one where the operation needs it, with a
 * message a developer can act on. An operation whose contract declares no body (the order
 * transitions, `c.noBody()`) needs none. An upload (a photo) is read here, after the other guards,
 * so that the order stays 401, 429, 403, then 413/415/400.
 *
 * A guard rather than an interceptor: it only admits or refuses, and each interceptor costs every
 * request a layer of Nest's rxjs pipeline (~4 KB allocated per request).
 */
@Injectable()
export class BodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // An upload's body is read only now, after the other guards, with its own limit
    // (upload-body.ts).
    const upload = request.body;
    if (upload instanceof PendingUpload) {
      return upload.read().then((file) => {
        request.body = file;
        return true;
      });
    }
    if (request.body === undefined && isUploadRoute(request)) {
      throw unsupportedUpload();
    }
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
    return true;
  }

  private needsBody(context: ExecutionContext): boolean {
    const route = this.reflector.get<{ appRoute?: AppRoute } | undefined>(
      TsRestAppRouteMetadataKey,
      context.getHandler(),
    )?.appRoute;
    return !(route && 'body' in route && typeof route.body === 'symbol');
  }
}
