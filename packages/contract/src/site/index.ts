import { routesOf, type TNamedRoute } from '../routes';
import { siteContract } from './routers';

export * from './audit';
export * from './routers';
export * from './schemas';

/** Every operation of the site-only contract. */
export const SITE_CONTRACT_ROUTES: readonly TNamedRoute[] = routesOf(siteContract);
