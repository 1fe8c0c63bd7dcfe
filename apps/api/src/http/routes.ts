import { CONTRACT_ROUTES } from '@pets/contract';

/** The paths served outside the contract, declared here for the router and the modules alike. */
export const DOCS_PATH = '/docs';
export const DOCS_BUNDLE_PATH = '/docs/scalar.js';
export const DOCS_INIT_PATH = '/docs/docs.js';
/** The OpenAPI document as the reference page reads it (docs-page.ts, referenceDocument). */
export const DOCS_DOCUMENT_PATH = '/docs/openapi.json';
export const OPENAPI_PATH = '/v1/openapi.json';
export const HEALTH_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

type TKnownRoute = { method: string; pattern: RegExp };

const toPattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}/?$`);

/** Routes served outside the contract: the OpenAPI document, the docs page, the probes. */
const OPERATIONAL_ROUTES = [
  OPENAPI_PATH,
  DOCS_PATH,
  DOCS_BUNDLE_PATH,
  DOCS_INIT_PATH,
  DOCS_DOCUMENT_PATH,
  HEALTH_PATH,
  READINESS_PATH,
].map((path) => ({ method: 'GET', path }));

/** Every route, for telling "no such path" (404) from "no such method" (405). */
const KNOWN_ROUTES: TKnownRoute[] = [
  ...CONTRACT_ROUTES.map(({ route }) => route),
  ...OPERATIONAL_ROUTES,
].map((route) => ({ method: route.method, pattern: toPattern(route.path) }));

/**
 * The methods a path answers to, `HEAD` included wherever `GET` is; empty when no route of the
 * contract has this path.
 */
export const allowedMethods = (path: string): string[] => {
  const methods = new Set<string>();
  for (const route of KNOWN_ROUTES) {
    if (route.pattern.test(path)) {
      methods.add(route.method);
      if (route.method === 'GET') {
        methods.add('HEAD');
      }
    }
  }
  return [...methods].sort();
};
