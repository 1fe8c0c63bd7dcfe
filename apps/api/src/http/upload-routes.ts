import { CONTRACT_ROUTES, type TRouteMetadata } from '@pets/contract';
import type { FastifyRequest } from 'fastify';

/**
 * The routes whose body is a file (a photo): those the contract gives a limit of their own
 * (`bodyLimitBytes`), by their path as the router knows it. Their body is read after the guards
 * with that limit instead of the 16 KiB of every other route (http/upload-body.ts).
 */
const UPLOAD_LIMITS: ReadonlyMap<string, number> = new Map(
  CONTRACT_ROUTES.flatMap(({ route }) => {
    const limit = (route.metadata as TRouteMetadata | undefined)?.bodyLimitBytes;
    return limit === undefined ? [] : [[`${route.method} ${route.path}`, limit] as const];
  }),
);

/** The body limit of the request's route when it is an upload route, else undefined. */
export const uploadLimitOf = (request: FastifyRequest): number | undefined =>
  UPLOAD_LIMITS.get(`${request.method} ${request.routeOptions.url ?? ''}`);

export const isUploadRoute = (request: FastifyRequest): boolean =>
  uploadLimitOf(request) !== undefined;

/** The most any route reads of a body: the largest upload limit (the JSON routes read far less). */
export const LARGEST_UPLOAD_BYTES = Math.max(0, ...UPLOAD_LIMITS.values());
