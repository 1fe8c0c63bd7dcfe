import { initContract } from '@ts-rest/core';
import { categoriesRouter } from './routers/categories';
import { eventsRouter } from './routers/events';
import { meRouter } from './routers/me';
import { ordersRouter } from './routers/orders';
import { petsRouter } from './routers/pets';
import { webhooksRouter } from './routers/webhooks';
import { ZError } from './schemas/error';

const c = initContract();

export const API_VERSION = '1.0.0';
export const API_PATH_PREFIX = '/v1';

/**
 * The v1 interface. Every operation needs a bearer API key and is rate limited, so every one can
 * answer 401, 429 and 500 (and 503 while the database is unreachable), 408 when the client takes
 * too long to send its request (the API's REQUEST_TIMEOUT_SECONDS, HEADERS_TIMEOUT_SECONDS), 431
 * when its headers are too large, and 400 when the request itself is malformed (a bad
 * percent-encoding, two Authorization headers), whatever the operation.
 */
export const contract = c.router(
  {
    pets: petsRouter,
    orders: ordersRouter,
    categories: categoriesRouter,
    me: meRouter,
    events: eventsRouter,
    webhooks: webhooksRouter,
  },
  {
    pathPrefix: API_PATH_PREFIX,
    strictStatusCodes: true,
    commonResponses: {
      400: ZError,
      401: ZError,
      408: ZError,
      429: ZError,
      431: ZError,
      500: ZError,
      503: ZError,
    },
  },
);
export type TContract = typeof contract;
