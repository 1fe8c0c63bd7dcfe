import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error';
import { accessOf, permissionOf } from './access.decorator';

/**
 * Last guard: enforces the handler's @Access rule on the identity found by IdentifyGuard, then the
 * operation's permission on the key (403 `forbidden`: a read-only key writing, a partner key on a
 * staff operation). It runs after the rate limiter, so that a 401 or a 403 is counted and carries
 * rate-limit headers, and before any validation of the input, so that a caller without the right
 * learns nothing about its request. A 403 depends only on the key and the operation, never on the
 * resource named: an order the key may not see stays a 404, decided by the service.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (accessOf(this.reflector, context) !== 'key') {
      return true;
    }
    const { identity } = context.switchToHttp().getRequest<FastifyRequest>();
    const caller = identity?.caller;
    if (!caller) {
      throw identity?.error ?? new AppError('unauthorized', 'Missing API key.');
    }
    const { requiredRole, isWrite } = permissionOf(this.reflector, context);
    if (requiredRole !== undefined && caller.role !== requiredRole) {
      throw new AppError(
        'forbidden',
        `This operation needs a ${requiredRole} key; this is a ${caller.role} key.`,
      );
    }
    if (isWrite && caller.readOnly) {
      throw new AppError(
        'forbidden',
        'This API key is read-only: it can list and read, not change anything.',
      );
    }
    return true;
  }
}
