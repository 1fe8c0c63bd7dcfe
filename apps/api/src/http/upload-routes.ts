import { contract } from '@pets/contract';
import type { FastifyRequest } from 'fastify';

/**
 * The routes whose body is a file (a photo), read after the guards with the contract's photo
 * limit instead of the 16 KiB of every other route (http/upload-body.ts).
 */
const UPLOAD_ROUTES: ReadonlySet<string> = new Set([contract.petPhotos.addPetPhoto.path]);

export const isUploadRoute = (request: FastifyRequest): boolean =>
  UPLOAD_ROUTES.has(request.routeOptions.url ?? '');
