import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error';
import { isKeyOptional } from '../http/public.decorator';
import { ApiKeysService } from './api-keys.service';

/**
 * First guard of every /v1 request: finds out who is calling. It never rejects: the rate limiter
 * runs next and must count unauthenticated requests too (per client address), and
 * RequireApiKeyGuard answers 401 after it, so that 401 responses carry rate-limit headers.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isKeyOptional(this.reflector, context)) {
      return true;
    }
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const result = await this.apiKeys.authenticate(request.headers.authorization);
    if (result instanceof AppError) {
      request.authError = result;
    } else {
      request.caller = result;
    }
    return true;
  }
}

/** Answers 401 to a request without a valid key, before any validation of its input. */
@Injectable()
export class RequireApiKeyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isKeyOptional(this.reflector, context)) {
      return true;
    }
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.authError || !request.caller) {
      throw request.authError ?? new AppError('unauthorized', 'Missing API key.');
    }
    return true;
  }
}
