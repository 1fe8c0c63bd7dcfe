/**
 * Conditional requests (RFC 9110, section 13). Every `200` of a GET (a resource or a list page) and
 * of a PATCH carries an `ETag`: a strong validator, the first 132 bits of the SHA-256 of the exact
 * body, base64url, in quotes. A GET whose `If-None-Match` names it answers `304` with no body;
 * `updatePet` with an `If-Match` that does not name the animal's current one answers `412`.
 */

/** Whether a response carries an `ETag`: the server sets it, the OpenAPI document lists it. */
export const sendsEtag = (method: string, status: number): boolean =>
  status === 200 && (method === 'GET' || method === 'PATCH');

/** `"` + 22 base64url characters + `"`. */
export const ETAG_PATTERN = /^"[A-Za-z0-9_-]{22}"$/;
export const ETAG_LENGTH = 24;

/**
 * `If-None-Match` and `If-Match` hold one `*` or a list of ETags: at most this long, as the OpenAPI
 * document declares (an operation refuses a longer one, or an empty one, with a `400`).
 */
export const CONDITION_HEADER_MAX_LENGTH = 1024;

export type TConditionHeader = 'If-None-Match' | 'If-Match';

/**
 * The condition headers an operation reads: `If-None-Match` where it may answer `304`, `If-Match`
 * where `412`. The document lists them by this rule and the API checks them by it.
 */
export const conditionHeadersOf = (route: { responses: object }): TConditionHeader[] => [
  ...(304 in route.responses ? (['If-None-Match'] as const) : []),
  ...(412 in route.responses ? (['If-Match'] as const) : []),
];
