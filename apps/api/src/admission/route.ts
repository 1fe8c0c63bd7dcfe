import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  isWriteRoute,
  partnerLimitsOf,
  requiredRoleOf,
  siteAccessOf,
  type TApiKeyRole,
  type TPartnerLimits,
  type TSiteAccess,
  testKeysAllowedOf,
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
 * once in the contract (`requiredRole` in a route's metadata; every non-GET route is a write).
 */
export type TAccess = 'key' | 'keyless' | 'public';

export const Access = Reflector.createDecorator<TAccess>();

/** What admitting a request to a handler needs to know of it: read once per handler. */
export type TAdmissionRoute = {
  access: TAccess;
  /** The role the operation asks of a key (undefined: any). */
  requiredRole: TApiKeyRole | undefined;
  isWrite: boolean;
  /** What a partner key may do beyond its role (the contract's `partnerLimits`). */
  partnerLimits: TPartnerLimits | undefined;
  /** Whether the operation reads a body: not when its contract says `c.noBody()`. */
  needsBody: boolean;
  /** The contract route (undefined: a handler outside the contract). */
  route: AppRoute | undefined;
  /** A site-only operation (`siteContract`): who at the site may call it; undefined: /v1. */
  siteAccess: TSiteAccess | undefined;
  /** A write a test-mode key may make on production (the contract's `testKeys`). */
  testKeysAllowed: boolean;
};

// biome-ignore lint/complexity/noBannedTypes: Nest's handlers are typed as Function.
const describe = (reflector: Reflector, handler: Function): TAdmissionRoute => {
  const route = reflector.get<{ appRoute?: AppRoute } | undefined>(
    TsRestAppRouteMetadataKey,
    handler,
  )?.appRoute;
  return {
    access: reflector.get(Access, handler) ?? 'key',
    requiredRole: route && requiredRoleOf(route),
    isWrite: route !== undefined && isWriteRoute(route),
    partnerLimits: route && partnerLimitsOf(route),
    needsBody: !(route && 'body' in route && typeof route.body === 'symbol'),
    route,
    siteAccess: route && siteAccessOf(route),
    testKeysAllowed: route !== undefined && testKeysAllowedOf(route),
  };
};

const described = new WeakMap<object, TAdmissionRoute>();

/**
 * The admission rules of the handler a request reached: its @Access marker and the contract's
 * metadata of its operation, read from the handler once and kept, so no request reads them again.
 */
export const admissionRouteOf = (
  reflector: Reflector,
  context: ExecutionContext,
): TAdmissionRoute => {
  const handler = context.getHandler();
  let route = described.get(handler);
  if (route === undefined) {
    route = describe(reflector, handler);
    described.set(handler, route);
  }
  return route;
};
