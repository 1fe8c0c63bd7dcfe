import { API_PATH_PREFIX } from '@pets/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The path of a request target, without its query. */
export const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** Whether a path is under the versioned API: `/v1`, `/v1/` and everything below. */
export const isV1Path = (path: string): boolean =>
  path === API_PATH_PREFIX || path.startsWith(`${API_PATH_PREFIX}/`);

/**
 * The admission of a /v1 request no handler serves (AdmissionGuard.admitUnrouted), for the hooks
 * and error handlers that answer such requests: identified, counted, 401 without a valid key.
 */
export type TV1Gate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** See TV1Gate. */
    admitV1: TV1Gate;
  }
}

/** Makes the admission of unrouted requests reachable from the error handlers. */
export const registerV1Gate = (fastify: FastifyInstance, gate: TV1Gate): void => {
  fastify.decorate('admitV1', gate);
};
