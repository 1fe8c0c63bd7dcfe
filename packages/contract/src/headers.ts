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
} as const;
export type THeaderName = (typeof Header)[keyof typeof Header];

type THeaderDoc = { description: string; type: 'integer' | 'string'; example: string | number };

export const HEADER_DOCS: Record<THeaderName, THeaderDoc> = {
  [Header.rateLimitLimit]: {
    type: 'integer',
    description:
      'Requests allowed in the rate-limit window closest to exhaustion (per minute or per day, ' +
      'whichever has the smaller share left).',
    example: 60,
  },
  [Header.rateLimitRemaining]: {
    type: 'integer',
    description: 'Requests left in that window after this one.',
    example: 59,
  },
  [Header.rateLimitReset]: {
    type: 'integer',
    description: 'Unix timestamp (seconds) at which that window resets.',
    example: 1795392060,
  },
  [Header.rateLimitPolicy]: {
    type: 'string',
    description:
      'Both quota policies of the key, as in draft-ietf-httpapi-ratelimit-headers: quota `q` and ' +
      'window `w` in seconds.',
    example: '"minute";q=60;w=60, "day";q=1000;w=86400',
  },
  [Header.rateLimit]: {
    type: 'string',
    description:
      'Remaining quota `r` and seconds to reset `t` of the policy closest to exhaustion, as in ' +
      'draft-ietf-httpapi-ratelimit-headers.',
    example: '"minute";r=59;t=60',
  },
  [Header.retryAfter]: {
    type: 'integer',
    description:
      'Seconds to wait before retrying: until the exhausted window resets, or until a temporary ' +
      'ban ends.',
    example: 30,
  },
  [Header.requestId]: {
    type: 'string',
    description:
      'Identifier of this request (echoed when the client sends one); quote it to support.',
    example: '6f1c2a9e-1d4b-4c1e-9a51-3f0b2d7c8e11',
  },
  [Header.location]: {
    type: 'string',
    description: 'Address of the created resource.',
    example: '/v1/pets/42',
  },
  [Header.link]: {
    type: 'string',
    description:
      'RFC 8288 links. On lists: `rel="next"` with the address of the next page, present only ' +
      'when more items exist.',
    example: '</v1/pets?limit=20&cursor=eyJpZCI6MjJ9>; rel="next"',
  },
  [Header.deprecation]: {
    type: 'string',
    description: 'RFC 9745: the moment this operation was deprecated, as a structured-field date.',
    example: '@1795392000',
  },
  [Header.sunset]: {
    type: 'string',
    description: 'RFC 8594: the moment this operation will stop working.',
    example: 'Thu, 05 Dec 2030 00:00:00 GMT',
  },
};

/** Headers carried by every response of the v1 API, success or error. */
export const HEADERS_ON_EVERY_RESPONSE: readonly THeaderName[] = [
  Header.rateLimitLimit,
  Header.rateLimitRemaining,
  Header.rateLimitReset,
  Header.rateLimitPolicy,
  Header.rateLimit,
  Header.requestId,
];

/** `GET /v1/pets/{petId}` is deprecated: these describe when it went and when it goes. */
export const GET_PET_DEPRECATION = {
  deprecatedAt: new Date('2026-11-23T00:00:00Z'),
  sunsetAt: new Date('2030-12-05T00:00:00Z'),
  replacement: '/v1/pets',
  replacementDescription: '`GET /v1/pets` with the `status` filter',
} as const;
