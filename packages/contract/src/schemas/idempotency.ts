import { z } from 'zod';

/** The request header that makes a POST safe to retry (Stripe's semantics; docs/decisions.md). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Longest key accepted, as Stripe: room for a UUID, a ULID or a client's own composite key. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Printable ASCII (space to `~`): what a header value can carry without encoding questions. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]+$/;

/**
 * An `Idempotency-Key` value: 1 to 255 printable ASCII characters, compared exactly (case
 * matters). The server checks it before anything is stored; a bad one is a `400` on
 * `header.Idempotency-Key`.
 */
export const ZIdempotencyKey = z
  .string()
  .min(1, 'must not be empty')
  .max(IDEMPOTENCY_KEY_MAX_LENGTH, `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`)
  .regex(IDEMPOTENCY_KEY_PATTERN, 'must be printable ASCII characters (space to ~)');

/**
 * The request headers of an idempotent operation, as ts-rest declares them (header names arrive
 * in lower case): a typed client may pass `headers: { 'idempotency-key': ... }`.
 */
export const ZIdempotencyHeaders = z.object({
  'idempotency-key': ZIdempotencyKey.optional(),
});
