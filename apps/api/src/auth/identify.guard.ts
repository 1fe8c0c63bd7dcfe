import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { accessOf } from './access.decorator';
import { AuthService } from './auth.service';

/**
 * First guard: identifies the caller of an @Access('key') handler. It answers no 401 itself (see
 * AuthService.identify), only the 429 of an address over its failed-authentication budget:
 * RateLimitGuard runs next, then AccessGuard.
 */
@Injectable()
export class IdentifyGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (accessOf(this.reflector, context) !== 'key') {
      return true;
    }
    await this.auth.identify(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}
