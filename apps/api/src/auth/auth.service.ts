import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { FirstPartyHeader } from '@pets/contract';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { TIdentity } from '../api-keys/caller';
import { AppError } from '../core/app-error';
import { FailedAuthBudget } from './failed-auth-budget';

/** Node's names of the first-party headers (lower case), computed once. */
const VISITOR_IP = FirstPartyHeader.visitorIp.toLowerCase();
const FIRST_PARTY_KEY = FirstPartyHeader.firstPartyKey.toLowerCase();

/**
 * A person's session credential sent without the site's key beside it (issue 27): it works only
 * through the store's site, so a stolen cookie value is useless against the API directly.
 */
const SESSION_NEEDS_SITE: TIdentity = {
  caller: null,
  error: new AppError(
    'unauthorized',
    "This credential is a person's session: it is valid only through the store's site.",
    undefined,
    { 'WWW-Authenticate': 'Bearer realm="pets"' },
  ),
};

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
   * a valid key too (per client address) before AdmissionGuard answers them 401. Without credentials
   * (no Authorization header, or a blank one) that is all. With credentials, the client address's
   * failed-authentication budget comes first, before any lookup: over it, this throws the 429,
   * whatever the key (docs/errors.md); else a failure (anything but a valid key) is counted. Costs:
   * one read of the address's counter (a Redis round trip when shared), a key lookup only on a
   * miss of both key caches, one counter write per failure. When the key cache already knows the
   * key valid (the steady state), no lookup is at stake: the budget is then checked by the rate
   * limiter's own script (`request.authBudget`), in the same round trip, before it counts anything,
   * and answers the same 429.
   *
   * The client address is decided here, once (`request.clientAddress`): the visitor's address of
   * `Pets-Visitor-IP` when a first-party key vouches for it (`Pets-First-Party-Key`, else the
   * bearer key), else the connection's (docs/decisions.md, "The site as a first-party client").
   * A request without `Pets-Visitor-IP` (every partner's) pays one header lookup for it.
   */
  async identify(request: FastifyRequest): Promise<TIdentity> {
    const { authorization } = request.headers;
    const visitor = request.headers[VISITOR_IP];
    // Read without a visitor too: a person's session credential needs the site's key beside it.
    const siteKey = request.headers[FIRST_PARTY_KEY];
    if (typeof siteKey === 'string') {
      await this.vouchWithSiteKey(request, visitor, siteKey);
    }
    const examined = this.apiKeys.examine(authorization);
    if (typeof examined !== 'string' && (authorization ?? '').trim() === '') {
      request.identity = examined;
      return examined;
    }
    // The bearer key vouches for the visitor when no site key was sent beside it.
    const isVouchedByBearer = visitor !== undefined && siteKey === undefined;
    const cached = typeof examined === 'string' ? this.apiKeys.verifyCached(examined) : null;
    if (cached) {
      if (isVouchedByBearer) {
        vouch(request, cached, visitor);
      }
      if (cached.caller?.kind === 'session' && !request.isSiteVouched) {
        request.identity = SESSION_NEEDS_SITE;
        return SESSION_NEEDS_SITE;
      }
      request.identity = cached;
      request.authBudget = this.failures.preconditionOf(this.failures.trackerOf(request));
      return cached;
    }
    const tracker = this.failures.trackerOf(request);
    await this.failures.assertMayTry(tracker);
    const verified = typeof examined === 'string' ? this.apiKeys.verify(examined) : examined;
    const identity = verified instanceof Promise ? await verified : verified;
    if (identity.error) {
      await this.failures.fail(request, tracker);
    } else if (isVouchedByBearer && vouch(request, identity, visitor)) {
      // The visitor's own budget, checked by the rate limiter as for a key found in the cache.
      request.authBudget = this.failures.preconditionOf(this.failures.trackerOf(request));
    }
    if (identity.caller?.kind === 'session' && !request.isSiteVouched) {
      request.identity = SESSION_NEEDS_SITE;
      return SESSION_NEEDS_SITE;
    }
    request.identity = identity;
    return identity;
  }

  /**
   * `Pets-First-Party-Key` beside another key (a staff member signed in through the site): the
   * site's key vouches for the visitor. A value that is not a valid key counts as a failed
   * authentication of the connection's address, checked before any lookup like a bearer key's, so
   * the header is no free way to guess keys; the visitor headers are then ignored.
   */
  private async vouchWithSiteKey(
    request: FastifyRequest,
    visitor: string | string[] | undefined,
    siteKey: string,
  ): Promise<void> {
    const examined = this.apiKeys.examineKey(siteKey.trim());
    const cached = typeof examined === 'string' ? this.apiKeys.verifyCached(examined) : null;
    if (cached) {
      vouch(request, cached, visitor);
      return;
    }
    const tracker = this.failures.socketTrackerOf(request);
    await this.failures.assertMayTry(tracker);
    const verified = typeof examined === 'string' ? this.apiKeys.verify(examined) : examined;
    const identity = verified instanceof Promise ? await verified : verified;
    if (identity.error) {
      await this.failures.fail(request, tracker);
      return;
    }
    vouch(request, identity, visitor);
  }
}

/**
 * Makes the visitor's address the request's client address when the voucher is a valid
 * first-party key and the value one IP address (v4 or v6); anything else leaves the connection's.
 */
const vouch = (
  request: FastifyRequest,
  voucher: TIdentity,
  visitor: string | string[] | undefined,
): boolean => {
  if (voucher.caller?.firstParty !== true) {
    return false;
  }
  if (voucher.caller.kind === 'key') {
    // The site's own key stood beside the bearer (or was it): a session credential may be used.
    request.isSiteVouched = true;
  }
  if (typeof visitor !== 'string' || isIP(visitor) === 0) {
    return false;
  }
  request.clientAddress = visitor;
  return true;
};
