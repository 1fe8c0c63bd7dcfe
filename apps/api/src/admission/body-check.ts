import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/app-error';
import { UnusableBody } from '../http/body';
import { PendingUpload, unsupportedUpload } from '../http/upload-body';
import { isUploadRoute } from '../http/upload-routes';
import type { TAdmissionRoute } from './route';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The last step of admission, before the interceptors and the contract's validation: reports a
 * body that could not be parsed, or a missing one where the operation needs it, with a message a
 * developer can act on. An operation whose contract declares no body (the order transitions,
 * `c.noBody()`) needs none. An upload (a photo) is read here, after the other steps, so that the
 * order stays 401, 429, 403, then 413/415/400.
 */
export const checkBody = (
  route: TAdmissionRoute,
  request: FastifyRequest,
): void | Promise<void> => {
  // An upload's body is read only now, with its own limit (http/upload-body.ts).
  const upload = request.body;
  if (upload instanceof PendingUpload) {
    return upload.read().then((file) => {
      request.body = file;
    });
  }
  if (request.body === undefined && isUploadRoute(request)) {
    throw unsupportedUpload();
  }
  // An operation without a body ignores whatever came (an empty JSON body from a client that
  // always sends Content-Type, say), except a body over the limit: that is still a 413.
  if (
    request.body instanceof UnusableBody &&
    (route.needsBody || request.body.error.code === 'payload_too_large')
  ) {
    throw request.body.error;
  }
  if (METHODS_WITH_BODY.has(request.method) && request.body === undefined && route.needsBody) {
    throw new AppError(
      'invalid_request',
      'A JSON body is required: send it with Content-Type: application/json.',
    );
  }
};
