import type { THeaderName } from '../headers';

/** Extra facts about a route that ts-rest has no field for; the OpenAPI generator reads them. */
export type TRouteMetadata = {
  /** Headers sent with the given status (or `all` statuses) besides those on every response. */
  responseHeaders?: Partial<Record<number | 'all', THeaderName[]>>;
  deprecated?: boolean;
  /**
   * Accepts `Idempotency-Key` (set by `idempotent()`, routers/idempotent.ts): the server stores
   * the first response and replays it to retries; the document declares the header.
   */
  idempotent?: boolean;
};
