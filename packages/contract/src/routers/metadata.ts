import type { THeaderName } from '../headers';

/** Extra facts about a route that ts-rest has no field for; the OpenAPI generator reads them. */
export type TRouteMetadata = {
  /** Headers sent with the given status (or `all` statuses) besides those on every response. */
  responseHeaders?: Partial<Record<number | 'all', THeaderName[]>>;
  deprecated?: boolean;
};
