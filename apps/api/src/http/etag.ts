import { hash } from 'node:crypto';
import {
  API_PATH_PREFIX,
  CONDITION_HEADER_MAX_LENGTH,
  ETAG_PATTERN,
  Header,
  sendsEtag,
} from '@pets/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * ETags and conditions (rules/etag.ts in the contract). The validator is the body's own hash, so
 * a GET and a PATCH that read the same animal name the same version without a version column, and
 * whatever the answer holds (photos' addresses, a page's items and its order) is in it.
 */

const V1_PREFIX = `${API_PATH_PREFIX}/`;

/** The strong ETag of a JSON body: `"` + 22 base64url characters of its SHA-256 + `"`. */
export const etagOf = (body: string): string =>
  `"${hash('sha256', body, 'base64url').slice(0, 22)}"`;

/** The ETag of a value as the API sends it (Fastify serialises a body with JSON.stringify). */
export const etagOfValue = (value: unknown): string => etagOf(JSON.stringify(value));

/**
 * Whether a condition header names `etag`: `*`, or a comma-separated list of entity tags. With
 * `weak` (If-None-Match, RFC 9110 13.1.2) `W/"x"` names `"x"`; without (If-Match, 13.1.1) only
 * a strong tag does. A header too long or that parses to nothing names nothing.
 */
export const conditionNames = (header: string, etag: string, weak: boolean): boolean => {
  if (header.length > CONDITION_HEADER_MAX_LENGTH) {
    return false;
  }
  const value = header.trim();
  if (value === '*') {
    return true;
  }
  for (const part of value.split(',')) {
    let tag = part.trim();
    if (tag.startsWith('W/')) {
      if (!weak) {
        continue;
      }
      tag = tag.slice(2);
    }
    if (tag === etag && ETAG_PATTERN.test(tag)) {
      return true;
    }
  }
  return false;
};

/**
 * The onSend step (app.ts): a `200` of a GET or PATCH with a JSON body gets its ETag (and
 * `Cache-Control: private, no-cache` in place of `no-store`); a GET whose
 * If-None-Match names it becomes a `304` with no body, keeping every other header (the rate
 * limits, Link, X-Request-Id). The limiter has already counted the request: a `304` counts
 * (docs/decisions.md, "Conditional requests").
 */
export const withEtag = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown => {
  // The API's resources only: health probes and the site's files keep `no-store` and no version.
  if (
    typeof payload !== 'string' ||
    !sendsEtag(request.method, reply.statusCode) ||
    !request.url.startsWith(V1_PREFIX)
  ) {
    return payload;
  }
  const etag = etagOf(payload);
  reply.header(Header.etag, etag);
  // A client's HTTP cache may keep the answer, and asks again with its ETag every time: never
  // served without the API's say (which checks the key, counts the request and may answer 304).
  // An answer that set its own policy (the reference's scripts) keeps it.
  if (reply.getHeader('cache-control') === 'no-store') {
    reply.header('cache-control', 'private, no-cache');
  }
  const ifNoneMatch = request.headers['if-none-match'];
  if (request.method === 'GET' && ifNoneMatch && conditionNames(ifNoneMatch, etag, true)) {
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return '';
  }
  return payload;
};
