import type { TPartnerLimits, TSiteAccess } from '@pets/contract';
import { petCreatorOf } from '@pets/store/pets.repository';
import { type AppRoute, isZodType } from '@ts-rest/core';
import type { FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { TCaller } from '../api-keys/caller';
import { AppError } from '../core/app-error';
import type { TAdmissionRoute } from './route';

/** Whether the route's body schema accepts this body (parsed once more, for partner limits only). */
const isAcceptedBody = (route: AppRoute | undefined, body: unknown): boolean => {
  const schema = route && 'body' in route ? route.body : undefined;
  return (
    typeof body === 'object' && body !== null && isZodType(schema) && schema.safeParse(body).success
  );
};

/** A petId the contract would accept: anything else is left to validation (400). */
const PET_ID = /^[1-9]\d{0,15}$/;

/**
 * The contract's `partnerLimits` of an operation, for a partner key: body values a partner may not
 * send, and animals it did not create. Costs nothing unless the operation has limits and the key
 * is a partner's; `ownPetOnly` is one indexed lookup by primary key. An unknown animal passes: the
 * operation answers its 404 as for anyone.
 */
const enforcePartnerLimits = async (
  route: AppRoute | undefined,
  limits: TPartnerLimits,
  caller: TCaller,
  request: FastifyRequest,
  pool: Pool,
): Promise<void> => {
  const body = request.body;
  // Only a body the operation would accept: a bad one is the validation's 400, as for anyone.
  if (limits.bodyValues && isAcceptedBody(route, body)) {
    for (const [field, allowed] of Object.entries(limits.bodyValues)) {
      const value = (body as Record<string, unknown>)[field];
      if (value !== undefined && !allowed.includes(value as string)) {
        throw new AppError(
          'forbidden',
          `A partner key may set \`${field}\` only to ${allowed.map((each) => `\`${each}\``).join(' or ')}.`,
        );
      }
    }
  }
  const petId = (request.params as Record<string, string | undefined> | undefined)?.petId;
  if (limits.ownPetOnly && petId !== undefined && PET_ID.test(petId)) {
    const creator = await petCreatorOf(pool, petId);
    if (creator !== undefined && creator !== caller.apiKeyId) {
      throw new AppError(
        'forbidden',
        `Animal ${petId} was not created with this key: a partner key changes the photos of its own animals only.`,
      );
    }
  }
};

/**
 * The permission step of admission: a valid key (else its 401), then what the operation asks of
 * it (403 `forbidden`: a read-only key writing, a test-mode key writing on production where the
 * contract does not allow it, a partner key on a staff operation, a partner's limits). It comes after the rate limiter, so a 401 or a 403 is counted and carries rate-limit
 * headers, and before any validation of the input, so a caller without the right learns nothing
 * about its request. A 403 depends only on the key and the operation (and, for a partner's limits,
 * who created the animal), never on whether a resource exists: an order the key may not see
 * stays a 404, decided by the service.
 */
export const permit = (
  route: TAdmissionRoute,
  request: FastifyRequest,
  pool: Pool,
  isProduction: boolean,
): void | Promise<void> => {
  const { identity } = request;
  const caller = identity?.caller;
  if (route.siteAccess !== undefined) {
    return permitSite(route.siteAccess, request);
  }
  if (!caller) {
    throw identity?.error ?? new AppError('unauthorized', 'Missing API key.');
  }
  if (caller.kind === 'session' && caller.accountRole === 'developer') {
    throw new AppError(
      'forbidden',
      "A developer's session is for the developer portal only: call /v1 with an API key of your organisation.",
    );
  }
  if (route.requiredRole !== undefined && caller.role !== route.requiredRole) {
    throw new AppError(
      'forbidden',
      `This operation needs a ${route.requiredRole} key; this is a ${caller.role} key.`,
    );
  }
  if (route.isWrite && caller.readOnly) {
    throw new AppError(
      'forbidden',
      'This API key is read-only: it can list and read, not change anything.',
    );
  }
  if (route.isWrite && isProduction && caller.environment === 'staging' && !route.testKeysAllowed) {
    throw new AppError(
      'forbidden',
      'A test key (pets_test_) can read the live store and manage its own webhook endpoints, not change anything else: use a live key, or the staging environment.',
    );
  }
  if (route.partnerLimits && caller.role === 'partner') {
    return enforcePartnerLimits(route.route, route.partnerLimits, caller, request, pool);
  }
};

/** The surface the site-only contract shows anyone who is not the site: none at all. */
const NOT_FOUND = (): AppError => new AppError('not_found', 'No such operation.');

/**
 * The permission of a site-only operation (issue 27): `visitor` operations take the site's own
 * first-party key as the bearer; account operations a person's session credential, which
 * `identify` accepted only with the site's key beside it. Anyone else (a partner key, no key, a
 * credential without the site's key) gets 404: the internal surface is not advertised. The site
 * with a credential that stopped working gets its 401 (the person must sign in again); a person of
 * another role gets 403.
 */
const permitSite = (access: TSiteAccess, request: FastifyRequest): void => {
  const caller = request.identity?.caller ?? null;
  if (caller === null) {
    // The site itself, with a credential that no longer works (signed out, idle, expired): its 401.
    const error = request.identity?.error;
    throw access !== 'visitor' && request.isSiteVouched && error ? error : NOT_FOUND();
  }
  if (access === 'visitor') {
    if (caller.kind !== 'key' || !caller.firstParty) {
      throw NOT_FOUND();
    }
    return;
  }
  if (caller.kind !== 'session' || caller.accountRole === null) {
    throw NOT_FOUND();
  }
  if (!access.account.includes(caller.accountRole)) {
    throw new AppError('forbidden', `This is for ${access.account.join(' and ')} accounts only.`);
  }
};
