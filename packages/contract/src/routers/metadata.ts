import type { ContentObject } from 'openapi3-ts';
import type { THeaderName } from '../headers';
import type { TApiKeyRole } from '../schemas/api-key';

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
  /**
   * The role a key needs for this operation (`403 forbidden` for any other key, before the input
   * is read). Absent: every key. Read-only keys are refused every operation that is not a `GET`.
   * The API's AccessGuard enforces exactly this field, and the document describes it.
   */
  requiredRole?: TApiKeyRole;
  /**
   * What a partner key may do here beyond its role (a staff key: anything), enforced by the API's
   * AccessGuard from this field alone (`403 forbidden`), before the operation runs:
   * - `bodyValues`: the only values a partner may send for these body fields (createPet: an
   *   animal is published `available`; `pending`/`sold` without an order would mislead adopters);
   * - `ownPetOnly`: only on an animal created with the caller's own key (the `petId` path
   *   parameter; the photos of another party's animal are not the partner's to change).
   */
  partnerLimits?: TPartnerLimits;
  /** A description of a status specific to this operation (e.g. which conflict a 409 is). */
  responseDescriptions?: Partial<Record<number, string>>;
  /**
   * The request body as the document shows it, for a body that is not JSON (an image upload):
   * the media types it may be and its description. Absent: the route's zod body, as JSON.
   */
  requestBody?: { description: string; content: ContentObject };
  /**
   * Largest body this operation reads, in bytes, when it is not BODY_LIMIT_BYTES (an upload).
   * The API's body handling reads it from the route: the contract alone decides.
   */
  bodyLimitBytes?: number;
  /**
   * A site-only operation (`siteContract`, `/internal`): who at the site may call it. `visitor`:
   * the bearer is the site's own first-party key (a person not signed in); `account`: the bearer
   * is a person's session credential, vouched for by the site's key beside it, of one of these
   * roles. Anyone else gets `404`; a person of another role `403`.
   */
  siteAccess?: TSiteAccess;
  /**
   * `allowed`: a test-mode key (`pets_test_`) may call this write on the production API (a key's
   * own webhook endpoints). Every other write refuses it there with `403 forbidden`: a test key
   * reads the live store but never changes it. On staging every key is a test key and may write.
   */
  testKeys?: 'allowed';
};

export type TSiteAccess = 'visitor' | { account: readonly ('admin' | 'staff' | 'developer')[] };

/** Whether a test-mode key may call this write on production (see `testKeys`). */
export const testKeysAllowedOf = (route: { metadata?: unknown }): boolean =>
  (route.metadata as TRouteMetadata | undefined)?.testKeys === 'allowed';

/** Who at the site may call a site-only operation (undefined: a public /v1 operation). */
export const siteAccessOf = (route: { metadata?: unknown }): TSiteAccess | undefined =>
  (route.metadata as TRouteMetadata | undefined)?.siteAccess;

export type TPartnerLimits = {
  bodyValues?: Record<string, readonly string[]>;
  ownPetOnly?: boolean;
};

/** The partner limits of an operation, from its route (undefined: none). */
export const partnerLimitsOf = (route: { metadata?: unknown }): TPartnerLimits | undefined =>
  (route.metadata as TRouteMetadata | undefined)?.partnerLimits;

/** The role an operation needs, from its route (undefined: any key). */
export const requiredRoleOf = (route: { metadata?: unknown }): TApiKeyRole | undefined =>
  (route.metadata as TRouteMetadata | undefined)?.requiredRole;

/** Whether a route writes: read-only keys may call only the operations that do not. */
export const isWriteRoute = (route: { method: string }): boolean => route.method !== 'GET';
