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

/** `If-None-Match` and `If-Match` hold one `*` or a list of ETags: at most this long is read. */
export const CONDITION_HEADER_MAX_LENGTH = 1024;
