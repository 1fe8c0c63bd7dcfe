import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  isWriteRoute,
  partnerLimitsOf,
  requiredRoleOf,
  type TApiKeyRole,
  type TPartnerLimits,
} from '@pets/contract';
import type { AppRoute } from '@ts-rest/core';
import { TsRestAppRouteMetadataKey } from '@ts-rest/nest';

/**
 * Who may call a handler:
 * - `key` (the default: every handler without the decorator): a valid API key, counted on the key;
 * - `keyless`: anyone, counted per client address with the Free plan's numbers, like any request
 *   without a valid key (a key, if sent, is not looked at); its responses carry rate-limit headers;
 * - `public`: anyone, outside /v1 (health, docs): no key, no rate limit.
 *
 * What a valid key may do beyond that (its role, read-only or not) is the operation's, declared
 * once in the contract (`requiredRole` in a route's metadata; every non-GET route is a write), and
 * read here by `permissionOf`, so the document and the server cannot disagree.
 */
export type TAccess = 'key' | 'keyless' | 'public';

export const Access = Reflector.createDecorator<TAccess>();

/** The access rule of the handler of a request: the one place the marker is read. */
export const accessOf = (reflector: Reflector, context: ExecutionContext): TAccess =>
  reflector.get(Access, context.getHandler()) ?? 'key';

/** What an operation asks of a valid key: a role, and whether it writes. */
export type TPermission = {
  requiredRole: TApiKeyRole | undefined;
  isWrite: boolean;
  /** What a partner key may do beyond its role (the contract's `partnerLimits`). */
  partnerLimits: TPartnerLimits | undefined;
  /** The contract route (undefined: a handler outside the contract). */
  route?: AppRoute;
};

const ANY_KEY: TPermission = { requiredRole: undefined, isWrite: false, partnerLimits: undefined };

/**
 * The permission of the contract operation a handler implements (ts-rest's route metadata on
 * the handler); any key may call a handler outside the contract.
 */
export const permissionOf = (reflector: Reflector, context: ExecutionContext): TPermission => {
  const route = reflector.get<{ appRoute?: AppRoute } | undefined>(
    TsRestAppRouteMetadataKey,
    context.getHandler(),
  )?.appRoute;
  return route
    ? {
        requiredRole: requiredRoleOf(route),
        isWrite: isWriteRoute(route),
        partnerLimits: partnerLimitsOf(route),
        route,
      }
    : ANY_KEY;
};
