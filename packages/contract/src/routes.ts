import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { contract } from './contract';

/** A route of the contract with the name it has in its router (its OpenAPI operationId). */
export type TNamedRoute = { name: string; route: AppRoute };

/** Every route of a ts-rest router, depth first in declaration order: the one walk over it. */
export const routesOf = (router: AppRouter): TNamedRoute[] =>
  Object.entries(router).flatMap(([name, value]) =>
    isAppRoute(value) ? [{ name, route: value }] : routesOf(value),
  );

/** Every operation of the v1 contract. */
export const CONTRACT_ROUTES: readonly TNamedRoute[] = routesOf(contract);
