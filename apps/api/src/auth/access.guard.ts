import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error';
import { accessOf } from './access.decorator';

/**
 * Last guard: enforces the handler's @Access rule on the identity found by IdentifyGuard. It runs
 * after the rate limiter, so that a 401 is counted and carries rate-limit headers, and before any
 * validation of the input, so that a caller without a valid key learns nothing but 401. Roles
 * (403) will be checked here.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (accessOf(this.reflector, context) !== 'key') {
      return true;
    }
    const { identity } = context.switchToHttp().getRequest<FastifyRequest>();
    if (identity?.caller) {
      return true;
    }
    throw identity?.error ?? new AppError('unauthorized', 'Missing API key.');
  }
}
