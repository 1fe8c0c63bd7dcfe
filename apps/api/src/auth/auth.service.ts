import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { FailedAuthBudget } from './failed-auth-budget';
import type { TIdentity } from './identity';

/** The one way in: finds out who is calling, for the guards and for unknown /v1 routes alike. */
@Injectable()
export class AuthService {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly failures: FailedAuthBudget,
  ) {}

  /**
   * Identifies the request from its `Authorization: Bearer` key and records the result as the
   * request's identity. It never answers 401 itself: the rate limiter must count requests without
   * a valid key too (per client address) before AccessGuard answers them 401. Without credentials
   * (no Authorization header, or a blank one) that is all. With credentials, the client address's
   * failed-authentication budget comes first, before any lookup: over it, this throws the 429,
   * whatever the key (docs/errors.md); else a failure (anything but a valid key) is counted. Costs:
   * one read of the address's counter (a Redis round trip when shared), a key lookup only on a
   * miss of both key caches, one counter write per failure. When the key cache already knows the
   * key valid (the steady state), no lookup is at stake: the budget is then checked by the rate
   * limiter's own script (`request.authBudget`), in the same round trip, before it counts anything,
   * and answers the same 429.
   */
  async identify(request: FastifyRequest): Promise<TIdentity> {
    const { authorization } = request.headers;
    const examined = this.apiKeys.examine(authorization);
    if (typeof examined !== 'string' && (authorization ?? '').trim() === '') {
      request.identity = examined;
      return examined;
    }
    const tracker = this.failures.trackerOf(request);
    const cached = typeof examined === 'string' ? this.apiKeys.verifyCached(examined) : null;
    if (cached) {
      request.identity = cached;
      request.authBudget = this.failures.preconditionOf(tracker);
      return cached;
    }
    await this.failures.assertMayTry(tracker);
    const verified = typeof examined === 'string' ? this.apiKeys.verify(examined) : examined;
    const identity = verified instanceof Promise ? await verified : verified;
    if (identity.error) {
      await this.failures.fail(request, tracker);
    }
    request.identity = identity;
    return identity;
  }
}
