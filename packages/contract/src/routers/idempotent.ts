import type { AppRouteMutation } from '@ts-rest/core';
import { ZError } from '../schemas/error';
import { ZIdempotencyHeaders } from '../schemas/idempotency';
import type { TRouteMetadata } from './metadata';

/**
 * Makes a POST operation accept `Idempotency-Key`, in one line of its router:
 *
 *   placeOrder: idempotent({ method: 'POST', path: '/store/orders', ... }),
 *
 * It declares the header (typed clients may send it; the OpenAPI document shows it with its
 * rules), the two answers a retry can get besides the stored one (`409 idempotency_key_in_use`,
 * `422 idempotency_key_reused`), and `metadata.idempotent`, which the API's
 * IdempotencyInterceptor reads: the contract alone decides which operations are idempotent, so
 * the server and the document cannot disagree. `openapi.test.ts` requires it on every POST.
 */
export const idempotent = <const TRoute extends AppRouteMutation>(route: TRoute) => ({
  ...route,
  headers: ZIdempotencyHeaders,
  responses: { ...route.responses, 409: ZError, 422: ZError },
  metadata: {
    ...(route.metadata as TRouteMetadata | undefined),
    idempotent: true,
  } satisfies TRouteMetadata,
});
