import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { listCursor } from '../rules/cursor';
import { ID_NUMBER_PATTERN } from '../rules/id';
import { MAX_ID, storableText, ZCursorQuery, ZLimitQuery } from './common';
import { ZEventType } from './event';

/**
 * Webhooks: a key registers an address and the event types it wants; the API sends each event the
 * key may read (the rules of `GET /v1/events`) to it, signed per the Standard Webhooks
 * specification, retried on RETRY_SCHEDULE, and tells of every attempt in the deliveries list.
 */

/** Every event type, present and future: the one value that may stand for them all. */
export const ALL_EVENT_TYPES = '*';
/** Longest address an endpoint may have. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** How long a rotated secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** How much of a receiver's answer a delivery attempt keeps. */
export const WEBHOOK_RESPONSE_BODY_MAX_BYTES = 1024;
/** How long one attempt may take, from connecting to the end of the answer. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/**
 * Seconds before each attempt of a delivery, after the previous one: Svix's schedule (at once,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then every 12 h four times, so a receiver down for
 * a long weekend still gets it: twelve attempts over about 3 days (75.6 h), then the delivery has
 * failed.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [
  0, 5, 300, 1800, 7200, 18000, 36000, 36000, 43200, 43200, 43200, 43200,
] as const;
/**
 * The most endpoints one key may register, and the keys of one developer organisation together
 * (those that still work): every endpoint costs the senders a share, hanging or not.
 */
export const WEBHOOK_ENDPOINTS_PER_KEY_MAX = 16;
export const WEBHOOK_ENDPOINTS_PER_ORGANIZATION_MAX = 32;
/** The type of the event `POST /v1/webhook-endpoints/{id}/test` sends. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export const WEBHOOK_ENDPOINT_ID_PATTERN = new RegExp(`^we_${ID_NUMBER_PATTERN}$`);
export const WEBHOOK_DELIVERY_ID_PATTERN = new RegExp(`^whd_${ID_NUMBER_PATTERN}$`);
export const webhookEndpointIdOf = (id: bigint | number | string): string => `we_${id}`;
export const webhookDeliveryIdOf = (id: bigint | number | string): string => `whd_${id}`;
/** The `webhook-id` (and event id) of a test delivery: no event of the list has it. */
export const webhookTestMessageIdOf = (deliveryId: bigint | number | string): string =>
  `test_${deliveryId}`;

/** The number a prefixed id carries, within the ids the API hands out; undefined otherwise. */
export const prefixedNumberOf = (pattern: RegExp, id: string): bigint | undefined => {
  if (!pattern.test(id)) {
    return undefined;
  }
  const number = BigInt(id.slice(id.indexOf('_') + 1));
  return number <= BigInt(MAX_ID) ? number : undefined;
};

const ZWebhookEndpointId = extendApi(z.string().regex(WEBHOOK_ENDPOINT_ID_PATTERN).max(20), {
  description: 'Unique identifier of the webhook endpoint, `we_` and a number.',
  example: 'we_12',
});
const ZWebhookDeliveryId = extendApi(z.string().regex(WEBHOOK_DELIVERY_ID_PATTERN).max(21), {
  description: 'Unique identifier of the delivery, `whd_` and a number.',
  example: 'whd_301',
});

const instant = (description: string) => z.string().datetime().max(24).describe(description);

export const ZWebhookEventTypes = extendApi(
  z
    .array(z.union([ZEventType, z.literal(ALL_EVENT_TYPES)]), {
      invalid_type_error: 'events must be an array of event types',
    })
    .min(1, 'events must name at least one event type, or "*" for every type')
    .max(32, 'events must name at most 32 event types'),
  {
    description:
      'The event types sent to this endpoint, or `["*"]` for every type (including types added ' +
      'later). Only the events the key may read are sent, as in `GET /v1/events`.',
    example: ['pet.created', 'pet.status_changed'],
  },
);

const ZWebhookUrl = extendApi(
  storableText(
    z
      .string({ required_error: 'url is required', invalid_type_error: 'url must be a string' })
      .max(WEBHOOK_URL_MAX_LENGTH, `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`)
      .url('url must be an absolute URL, such as https://partner.example/hooks/pets'),
  ),
  {
    description:
      'Where events are sent (`POST`): an `https` address on the public Internet, without a user ' +
      'name or password. Addresses that are or resolve to loopback, private, link-local or other ' +
      'non-public networks are refused.',
    example: 'https://partner.example/hooks/pets',
  },
);
const ZWebhookDescription = extendApi(
  storableText(
    z
      .string({ invalid_type_error: 'description must be a string' })
      .max(
        WEBHOOK_DESCRIPTION_MAX_LENGTH,
        `description must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`,
      ),
  ),
  { description: 'A note for people: what listens there.', example: 'Our adoption widget' },
);

export const ZWebhookEndpointStatus = extendApi(z.enum(['enabled', 'disabled']), {
  description:
    '`enabled`: events are sent. `disabled`: none is sent (by its key, or by the API after every ' +
    'delivery failed for the whole retry schedule; `disabledReason` says which). Enabling it ' +
    'again sends the events recorded from then on; catch up on the rest with `GET /v1/events`.',
});

export const ZNewWebhookEndpoint = z
  .object({
    url: ZWebhookUrl,
    events: ZWebhookEventTypes,
    description: ZWebhookDescription.optional(),
  })
  .strict();
export type TNewWebhookEndpoint = z.infer<typeof ZNewWebhookEndpoint>;

/**
 * The body of updateWebhookEndpoint: any of its fields; a field left out keeps its value. `{}`
 * changes nothing and answers the endpoint as it is, as an empty `updatePet` does.
 */
export const ZUpdateWebhookEndpoint = z
  .object({
    url: ZWebhookUrl.optional(),
    events: ZWebhookEventTypes.optional(),
    description: ZWebhookDescription.nullable().optional(),
    status: ZWebhookEndpointStatus.optional(),
  })
  .strict();
export type TUpdateWebhookEndpoint = z.infer<typeof ZUpdateWebhookEndpoint>;

export const ZWebhookEndpoint = extendApi(
  z.object({
    id: ZWebhookEndpointId,
    url: z.string().max(WEBHOOK_URL_MAX_LENGTH).describe('Where events are sent.'),
    events: ZWebhookEventTypes,
    description: z.string().max(WEBHOOK_DESCRIPTION_MAX_LENGTH).nullable(),
    status: ZWebhookEndpointStatus,
    disabledReason: z
      .string()
      .max(300)
      .nullable()
      .describe('Why the endpoint is disabled; null while it is enabled.'),
    createdAt: instant('When the endpoint was registered (RFC 3339, UTC).'),
    updatedAt: instant('When the endpoint last changed (RFC 3339, UTC).'),
  }),
  { title: 'WebhookEndpoint' },
);
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

export const ZWebhookSecret = extendApi(
  z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,44}={0,2}$/)
    .max(60),
  {
    description:
      'The signing secret: `whsec_` and the base64 of 32 random bytes. Shown only when the ' +
      'endpoint is registered and when its secret is rotated: keep it.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
);
export const ZWebhookEndpointWithSecret = extendApi(
  ZWebhookEndpoint.extend({ secret: ZWebhookSecret }),
  { title: 'WebhookEndpointWithSecret' },
);
export type TWebhookEndpointWithSecret = z.infer<typeof ZWebhookEndpointWithSecret>;
export const ZWebhookEndpoints = extendApi(z.array(ZWebhookEndpoint).max(100), {
  title: 'WebhookEndpoints',
});

export const ZWebhookAttempt = extendApi(
  z.object({
    at: instant('When the attempt started (RFC 3339, UTC).'),
    statusCode: extendApi(z.number().int().min(100).max(599).nullable(), {
      format: 'int32',
      description: "The receiver's HTTP status; null when no answer came.",
    }),
    durationMs: extendApi(z.number().int().min(0).max(3_600_000), {
      format: 'int32',
      description: 'How long the attempt took, in milliseconds.',
    }),
    error: z
      .string()
      .max(300)
      .nullable()
      .describe(
        'Why the attempt failed (a refused address, a timeout, a redirect, a status that is not ' +
          '2xx); null when it succeeded.',
      ),
    responseBody: z
      .string()
      .max(WEBHOOK_RESPONSE_BODY_MAX_BYTES)
      .nullable()
      .describe(`The start of the receiver's answer (${WEBHOOK_RESPONSE_BODY_MAX_BYTES} bytes).`),
  }),
  { title: 'WebhookAttempt' },
);
export type TWebhookAttempt = z.infer<typeof ZWebhookAttempt>;

export const ZWebhookDeliveryStatus = extendApi(z.enum(['pending', 'succeeded', 'failed']), {
  description:
    '`pending`: being sent or waiting for its next attempt; `succeeded`: the receiver answered ' +
    '2xx; `failed`: every attempt of the schedule failed (retry it with the retry operation).',
});

export const ZWebhookDelivery = extendApi(
  z.object({
    id: ZWebhookDeliveryId,
    eventId: z
      .string()
      .max(24)
      .describe('The event sent (its `webhook-id`); `test_<n>` for a test delivery.'),
    eventType: z.string().max(40).describe('The type of the event sent.'),
    status: ZWebhookDeliveryStatus,
    createdAt: instant('When the delivery was created (RFC 3339, UTC).'),
    nextAttemptAt: instant(
      'When the next attempt is due (RFC 3339, UTC); null once settled.',
    ).nullable(),
    attempts: z
      .array(ZWebhookAttempt)
      .max(100)
      .describe('Every attempt, oldest first (the last 100).'),
  }),
  { title: 'WebhookDelivery' },
);
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export const ZWebhookDeliveries = extendApi(z.array(ZWebhookDelivery).max(100), {
  title: 'WebhookDeliveries',
});

export const ZWebhookEndpointParams = z.object({
  endpointId: extendApi(
    z
      .string()
      .max(20, 'endpointId is too long')
      .regex(
        WEBHOOK_ENDPOINT_ID_PATTERN,
        'endpointId must be a webhook endpoint id, such as we_12',
      ),
    { description: 'ID of the webhook endpoint.', example: 'we_12' },
  ),
});
export type TWebhookEndpointParams = z.infer<typeof ZWebhookEndpointParams>;

export const ZWebhookDeliveryParams = ZWebhookEndpointParams.extend({
  deliveryId: extendApi(
    z
      .string()
      .max(21, 'deliveryId is too long')
      .regex(WEBHOOK_DELIVERY_ID_PATTERN, 'deliveryId must be a delivery id, such as whd_301'),
    { description: 'ID of the delivery.', example: 'whd_301' },
  ),
});
export type TWebhookDeliveryParams = z.infer<typeof ZWebhookDeliveryParams>;

/** The endpoints list has no filter: its cursor carries the position alone. */
export type TWebhookEndpointsListFilters = Record<never, never>;
export const WEBHOOK_ENDPOINTS_CURSOR = listCursor<TWebhookEndpointsListFilters>({});

export type TWebhookDeliveriesListFilters = {
  status?: z.infer<typeof ZWebhookDeliveryStatus> | undefined;
};
export const WEBHOOK_DELIVERIES_CURSOR = listCursor<TWebhookDeliveriesListFilters>({
  status: {
    write: (status) => status,
    read: (text) => ZWebhookDeliveryStatus.safeParse(text).data,
  },
});

export const ZListWebhookEndpointsQuery = z.object({
  limit: ZLimitQuery,
  cursor: ZCursorQuery,
});
export type TListWebhookEndpointsQuery = z.infer<typeof ZListWebhookEndpointsQuery>;

export const ZListWebhookDeliveriesQuery = z.object({
  limit: ZLimitQuery,
  status: extendApi(ZWebhookDeliveryStatus.optional(), {
    description: 'Only deliveries in this status. Omit for every status.',
  }),
  cursor: ZCursorQuery,
});
export type TListWebhookDeliveriesQuery = z.infer<typeof ZListWebhookDeliveriesQuery>;
