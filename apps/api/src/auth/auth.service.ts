import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { TIdentity } from './identity';

/** The one way in: finds out who is calling, for the guards and for unknown /v1 routes alike. */
@Injectable()
export class AuthService {
  constructor(private readonly apiKeys: ApiKeysService) {}

  /**
   * Identifies the request from its `Authorization: Bearer` key and records the result as the
   * request's identity. Never rejects a request itself: the rate limiter must count requests
   * without a valid key too (per client address) before AccessGuard answers them 401. On a cached
   * key it awaits nothing.
   */
  async identify(request: FastifyRequest): Promise<TIdentity> {
    const verified = this.apiKeys.authenticate(request.headers.authorization);
    const identity = verified instanceof Promise ? await verified : verified;
    request.identity = identity;
    return identity;
  }
}
