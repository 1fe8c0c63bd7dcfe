import { ETAG_LENGTH, ETAG_PATTERN } from './rules/etag';
import { nextPageLink } from './rules/link';
import { MAX_ID } from './schemas/common';
import { PETS_CURSOR } from './schemas/pet';

/**
 * Response headers of the v1 API. The names are used by the server when it sets them and by the
 * OpenAPI generator when it documents them, so the two cannot drift apart.
 */
export const Header = {
  rateLimitLimit: 'X-RateLimit-Limit',
  rateLimitRemaining: 'X-RateLimit-Remaining',
  rateLimitReset: 'X-RateLimit-Reset',
  rateLimitPolicy: 'RateLimit-Policy',
  rateLimit: 'RateLimit',
  retryAfter: 'Retry-After',
  requestId: 'X-Request-Id',
  location: 'Location',
  link: 'Link',
  deprecation: 'Deprecation',
  sunset: 'Sunset',
  wwwAuthenticate: 'WWW-Authenticate',
  idempotentReplayed: 'Idempotent-Replayed',
  totalCount: 'X-Total-Count',
  etag: 'ETag',
} as const;
export type THeaderName = (typeof Header)[keyof typeof Header];

/**
 * Request headers only a first-party client sends: the store's own site, whose key has the
 * first-party capability (`pnpm keys create --first-party`). With them the API tells the site's
 * visitors apart: the failed-authentication budget and the site key's rate limits count per
 * visitor, not per site. Believed only when a first-party key vouches for them: the bearer key
 * itself, or `Pets-First-Party-Key` beside another key (a staff member's, signed in through the
 * site); from any other caller they are ignored. Not in the OpenAPI document: no partner uses them
 * (docs/decisions.md, "The site as a first-party client").
 */
export const FirstPartyHeader = {
  /** The visitor's address, as the site's edge decided it (TRUSTED_PROXIES). */
  visitorIp: 'Pets-Visitor-IP',
  /** The site's own key, vouching for `Pets-Visitor-IP` on a request made with another key. */
  firstPartyKey: 'Pets-First-Party-Key',
} as const;

/**
 * CORS's own response header, set by the CORS hook: documented on every response, but not one of
 * ours (so not in `Header`, whose names a browser app is allowed to read).
 */
export const CORS_ALLOW_ORIGIN = 'Access-Control-Allow-Origin';
/** Every header the document describes. */
export type TDocumentedHeader = THeaderName | typeof CORS_ALLOW_ORIGIN;

/** A header's value as OpenAPI describes it: bounded, so validators and clients know the worst case. */
export type THeaderSchema =
  | { type: 'integer'; format: 'int32' | 'int64'; minimum: number; maximum: number }
  | { type: 'string'; maxLength: number; format?: string; pattern?: string };

type THeaderDoc = {
  description: string;
  schema: THeaderSchema;
  example: string | number;
  /**
   * Sent only under a condition (a next page exists, CORS is configured for the caller's origin),
   * so never `required` in the document even where an operation lists it.
   */
  conditional?: boolean;
};

const count = (maximum: number): THeaderSchema => ({
  type: 'integer',
  format: 'int64',
  minimum: 0,
  maximum,
});
const text = (maxLength: number, pattern?: string): THeaderSchema => ({
  type: 'string',
  maxLength,
  ...(pattern ? { pattern } : {}),
});
/** Requests in a window: an enterprise key's quota is at most this. */
const MAX_QUOTA = 1_000_000_000;
/** Unix seconds: any moment before the year 3000. */
const MAX_UNIX_SECONDS = 32_503_680_000;
/**
 * A link target holds the path, the limit, the filters and a cursor that repeats them: at worst
 * (100 ids, a 100-character name search in a non-Latin script, every other filter) about 6,600
 * characters, below this.
 */
const MAX_LINK_LENGTH = 8192;

export const HEADER_DOCS: Record<TDocumentedHeader, THeaderDoc> = {
  [Header.rateLimitLimit]: {
    schema: count(MAX_QUOTA),
    description:
      'Requests allowed in the rate-limit window closest to exhaustion (per minute or per day, ' +
      'whichever has the smaller share left).',
    example: 60,
  },
  [Header.rateLimitRemaining]: {
    schema: count(MAX_QUOTA),
    description: 'Requests left in that window after this one.',
    example: 59,
  },
  [Header.rateLimitReset]: {
    schema: count(MAX_UNIX_SECONDS),
    description: 'Unix timestamp (seconds) at which that window resets.',
    example: 1795392060,
  },
  [Header.rateLimitPolicy]: {
    schema: text(200),
    description:
      'Both quota policies of the key, as in draft-ietf-httpapi-ratelimit-headers: quota `q` and ' +
      'window `w` in seconds.',
    example: '"minute";q=60;w=60, "day";q=1000;w=86400',
  },
  [Header.rateLimit]: {
    schema: text(100),
    description:
      'Remaining quota `r` and seconds to reset `t` of the policy closest to exhaustion, as in ' +
      'draft-ietf-httpapi-ratelimit-headers.',
    example: '"minute";r=59;t=60',
  },
  [Header.retryAfter]: {
    schema: count(86_400),
    description:
      'Seconds to wait before retrying: until the exhausted window resets, until a temporary ' +
      'ban ends, or (on a 503) about the time the database needs to be back.',
    example: 30,
  },
  [Header.requestId]: {
    schema: text(128),
    description:
      'Identifier of this request (echoed when the client sends one); quote it to support.',
    example: '6f1c2a9e-1d4b-4c1e-9a51-3f0b2d7c8e11',
  },
  [Header.location]: {
    schema: text(100),
    description: 'Address of the created resource.',
    example: '/v1/pets/42',
  },
  [Header.link]: {
    conditional: true,
    schema: text(MAX_LINK_LENGTH),
    description:
      'RFC 8288 links. On lists: `rel="next"` with the address of the next page, present only ' +
      'when more items exist. On `getPet`: `rel="successor-version"`, the replacement operation.',
    // A real next-page link, with a cursor as the API issues it.
    example: nextPageLink(
      '/v1/pets',
      { limit: 20, status: 'available' },
      PETS_CURSOR.encode(22, { status: 'available' }),
    ),
  },
  [Header.deprecation]: {
    schema: text(20, '^@\\d+$'),
    description: 'RFC 9745: the moment this operation was deprecated, as a structured-field date.',
    example: '@1795392000',
  },
  [Header.sunset]: {
    schema: text(29),
    description: 'RFC 8594: the moment this operation will stop working.',
    example: 'Thu, 05 Dec 2030 00:00:00 GMT',
  },
  [Header.wwwAuthenticate]: {
    schema: text(100),
    description: 'RFC 9110: the authentication scheme the API expects, on every `401`.',
    example: 'Bearer realm="pets"',
  },
  [Header.idempotentReplayed]: {
    conditional: true,
    schema: text(4, '^true$'),
    description:
      'Sent (`true`) when this response is the stored answer to an earlier request with the same ' +
      '`Idempotency-Key`, replayed instead of running the operation again.',
    example: 'true',
  },
  [Header.totalCount]: {
    conditional: true,
    schema: count(MAX_ID),
    description:
      'How many animals match the filters of the list (all its pages), sent when the request ' +
      'asks for it with `include=total_count`. Counted when the page is read: a list that ' +
      'changes between pages may not add up to it.',
    example: 137,
  },
  [Header.etag]: {
    schema: text(ETAG_LENGTH, ETAG_PATTERN.source),
    description:
      'The version of this answer (RFC 9110): a hash of its body. Send it back in `If-None-Match` ' +
      'to get `304 Not Modified` while nothing changed, and (for `updatePet`) in `If-Match` to ' +
      'change the animal only if nobody else did since you read it.',
    example: '"VW8rQ1ZvX2d0eWh0dWN1QQ"',
  },
  [CORS_ALLOW_ORIGIN]: {
    schema: text(200),
    description:
      "CORS: the caller's origin, echoed only when the operator lists it in `CORS_ORIGINS` " +
      '(CORS is off by default: browsers on other origins cannot read responses).',
    example: 'https://shelter.example',
    conditional: true,
  },
};

/** Headers carried by every response of the v1 API, success or error. */
export const HEADERS_ON_EVERY_RESPONSE: readonly TDocumentedHeader[] = [
  Header.rateLimitLimit,
  Header.rateLimitRemaining,
  Header.rateLimitReset,
  Header.rateLimitPolicy,
  Header.rateLimit,
  Header.requestId,
  CORS_ALLOW_ORIGIN,
];

/**
 * Of those, the ones a response may lack because it failed before the rate limiter ran (an
 * unexpected error, or the database unavailable while the key is looked up): `500` and `503`;
 * and `408`, written when a request was not received in time, before it could be identified.
 */
export const RATE_LIMIT_HEADERS: readonly TDocumentedHeader[] = [
  Header.rateLimitLimit,
  Header.rateLimitRemaining,
  Header.rateLimitReset,
  Header.rateLimitPolicy,
  Header.rateLimit,
];

/** `GET /v1/pets/{petId}` is deprecated: these describe when it went and when it goes. */
export const GET_PET_DEPRECATION = {
  deprecatedAt: new Date('2026-11-23T00:00:00Z'),
  sunsetAt: new Date('2030-12-05T00:00:00Z'),
  replacement: '/v1/pets',
  replacementDescription: '`GET /v1/pets?id={petId}`: the `id` filter of listPets',
} as const;
