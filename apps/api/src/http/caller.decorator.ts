import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { TCaller } from '../api-keys/caller';
import { callerOf } from '../auth/identity';
import { AppError } from '../core/app-error';

/** The authenticated caller; AdmissionGuard has already made sure there is one. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): TCaller => {
  const caller = callerOf(context.switchToHttp().getRequest<FastifyRequest>());
  if (!caller) {
    throw new AppError('unauthorized', 'Missing API key.');
  }
  return caller;
});
