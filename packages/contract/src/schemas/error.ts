import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { BODY_LIMIT_BYTES } from '../rules/body-limit';

/**
 * The closed set of machine-readable error codes. Clients may switch on these; adding a code is a
 * versioned change, documented in docs/errors.md.
 */
export const ZErrorCode = z.enum([
  'invalid_request',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'headers_too_large',
  'rate_limited',
  'api_key_banned',
  'internal_error',
  'not_implemented',
  'service_unavailable',
  'idempotency_key_in_use',
  'idempotency_key_reused',
  // Orders and roles; each group appended, so that merges with other additions stay easy.
  'forbidden',
  'pet_not_available',
  'order_transition_not_allowed',
  'pet_status_conflict',
  // Animal profiles and photos.
  'invalid_image',
  'image_too_large',
  'photo_limit_reached',
  'photo_order_conflict',
  // Applications, many per animal.
  'order_already_open',
  'order_notes_full',
  // Conditional requests.
  'precondition_failed',
  // Plan requests (the site's developer portal and back office only).
  'plan_request_conflict',
  // Webhook endpoints.
  'webhook_endpoint_limit_reached',
  // People's accounts (the site only): what an unconfirmed address may not do yet.
  'email_not_confirmed',
]);
export type TErrorCode = z.infer<typeof ZErrorCode>;
export const ErrorCode = ZErrorCode.enum;

/** The HTTP status every code is sent with: the `status` field of the body always equals it. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  api_key_banned: 429,
  internal_error: 500,
  service_unavailable: 503,
  not_implemented: 501,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  forbidden: 403,
  pet_not_available: 409,
  order_transition_not_allowed: 409,
  pet_status_conflict: 409,
  invalid_image: 400,
  image_too_large: 413,
  photo_limit_reached: 409,
  photo_order_conflict: 409,
  order_already_open: 409,
  order_notes_full: 409,
  precondition_failed: 412,
  plan_request_conflict: 409,
  webhook_endpoint_limit_reached: 409,
  email_not_confirmed: 403,
} as const satisfies Record<TErrorCode, number>;

/**
 * Upper bounds of an error body, documented so that clients and validators know the worst case.
 * Messages are ours, but some quote the request: the path of an unknown route (the request line
 * is at most 16 KiB), or every unknown key of a body (at most BODY_LIMIT_BYTES; each key of n
 * characters costs at least n + 4 bytes of JSON and adds n + 24 characters of message).
 */
export const ERROR_MESSAGE_MAX_LENGTH = 8 * BODY_LIMIT_BYTES;
/** One detail per invalid field: at most one per 4 bytes of body, plus the path and query. */
export const ERROR_DETAILS_MAX_ITEMS = BODY_LIMIT_BYTES / 4;

export const ZErrorDetail = z.object({
  field: z
    .string()
    .max(BODY_LIMIT_BYTES)
    .describe('Dotted path of the offending input, such as `name` or `query.limit`.'),
  message: z.string().max(ERROR_MESSAGE_MAX_LENGTH),
});
export type TErrorDetail = z.infer<typeof ZErrorDetail>;

export const ZError = extendApi(
  z.object({
    code: ZErrorCode.describe('Machine-readable error code (see docs/errors.md).'),
    message: z
      .string()
      .max(ERROR_MESSAGE_MAX_LENGTH)
      .describe('Human-readable description, safe to show to a developer.'),
    status: extendApi(z.number().int().min(400).max(599), {
      format: 'int32',
      description: 'The HTTP status code of the response.',
    }),
    details: z
      .array(ZErrorDetail)
      .max(ERROR_DETAILS_MAX_ITEMS)
      .optional()
      .describe('For `invalid_request`: one entry per invalid field.'),
  }),
  {
    title: 'Error',
    example: {
      code: 'invalid_request',
      message: 'name: must not be empty',
      status: 400,
      details: [{ field: 'name', message: 'must not be empty' }],
    },
  },
);
export type TError = z.infer<typeof ZError>;
