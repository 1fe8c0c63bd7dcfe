import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { listCursor } from '../rules/cursor';
import { ID_NUMBER_PATTERN } from '../rules/id';
import { MAX_ID, ZCursorQuery, ZLimitQuery } from './common';
import { type TOrderStatus, ZOrder, ZOrderStatus } from './order';
import { ZPet } from './pet';

/**
 * Events: what changed, recorded in the same transaction as the change (an outbox), listed by
 * `GET /v1/events` for EVENT_RETENTION_DAYS so a partner that was away can catch up. Each
 * carries the resource as the API returned it just after the change.
 */

/** How long an event is kept (then deleted by the API's daily schedule). */
export const EVENT_RETENTION_DAYS = 30;

export const PET_EVENT_TYPES = [
  'pet.created',
  'pet.updated',
  'pet.status_changed',
  'pet.photo_added',
  'pet.photo_removed',
] as const;
export type TPetEventType = (typeof PET_EVENT_TYPES)[number];

/** An order's event is named after the status it reached: `order.placed`, `order.approved`... */
export type TOrderEventType = `order.${TOrderStatus}`;
export const ORDER_EVENT_TYPES = ZOrderStatus.options.map(
  (status): TOrderEventType => `order.${status}`,
) as [TOrderEventType, ...TOrderEventType[]];
export const orderEventType = (status: TOrderStatus): TOrderEventType => `order.${status}`;

export const ZPetEventType = extendApi(z.enum(PET_EVENT_TYPES), {
  description:
    'What happened to an animal: `pet.created`; `pet.updated` (any change of its fields or the ' +
    'order of its photos; not a change of `applicationsInReview` alone); `pet.status_changed` ' +
    '(sent with `pet.updated` when a change of the animal set its status, and alone when an ' +
    'adoption order did: approved, completed, or an approval that fell through); ' +
    '`pet.photo_added`, `pet.photo_removed`.',
});
export const ZOrderEventType = extendApi(z.enum(ORDER_EVENT_TYPES), {
  description:
    'What happened to an adoption order: named after the status it reached (`order.placed`, ' +
    '`order.approved`, `order.waitlisted`, `order.declined`, `order.completed`, ' +
    '`order.cancelled`, and `order.unconfirmed` where adopters confirm by email), whether the ' +
    'order itself was acted on or changed with another (waitlisted by an approval).',
});
export const ZEventType = extendApi(z.enum([...PET_EVENT_TYPES, ...ORDER_EVENT_TYPES]), {
  description: 'An event type: one of the pet or order event types.',
});
export type TEventType = z.infer<typeof ZEventType>;

/** `evt_` and the event's number: numbers grow in the order events were recorded. */
export const EVENT_ID_PATTERN = new RegExp(`^evt_${ID_NUMBER_PATTERN}$`);
export const eventIdOf = (id: bigint | number | string): string => `evt_${id}`;

const ZEventId = extendApi(z.string().regex(EVENT_ID_PATTERN).max(20), {
  description:
    'Unique identifier of the event, `evt_` and a number that grows in the order events were ' +
    'recorded. Also the `webhook-id` of its deliveries.',
  example: 'evt_1042',
});
const createdAt = z
  .string()
  .datetime()
  .max(24)
  .describe('When the change happened (RFC 3339, UTC).');

export const ZPetEvent = extendApi(
  z.object({
    id: ZEventId,
    type: ZPetEventType,
    createdAt,
    data: ZPet.describe('The animal just after the change, as `getPet` returns it.'),
  }),
  { title: 'PetEvent' },
);
export const ZOrderEvent = extendApi(
  z.object({
    id: ZEventId,
    type: ZOrderEventType,
    createdAt,
    data: ZOrder.describe('The order just after the change, as `getOrder` returns it.'),
  }),
  { title: 'OrderEvent' },
);
export const ZEvent = extendApi(z.union([ZPetEvent, ZOrderEvent]), { title: 'Event' });
export type TEvent = z.infer<typeof ZEvent>;
export type TPetEvent = z.infer<typeof ZPetEvent>;
export type TOrderEvent = z.infer<typeof ZOrderEvent>;

export const ZEvents = extendApi(z.array(ZEvent).max(100), { title: 'Events' });

/** The filters of listEvents as its cursor carries them, in this order. */
export type TEventsListFilters = {
  type?: TEventType | undefined;
  since?: string | undefined;
  after?: string | undefined;
};

const ZSinceQuery = extendApi(
  z
    .string()
    .max(40, 'since is too long')
    .datetime({ offset: true, message: 'since must be an RFC 3339 date-time' })
    .optional(),
  {
    description:
      'Only events that happened at or after this instant (RFC 3339, e.g. `2026-11-27T09:00:00Z`).',
  },
);
const ZAfterQuery = extendApi(
  z
    .string()
    .regex(EVENT_ID_PATTERN, 'after must be an event id, such as evt_1042')
    .max(20)
    .optional(),
  {
    description:
      'Only events recorded after this one (its `id`): where a partner that was away resumes.',
  },
);

/** The cursor of listEvents: where the next page starts, and the list's filters. */
export const EVENTS_CURSOR = listCursor<TEventsListFilters>({
  type: { write: (type) => type, read: (text) => ZEventType.safeParse(text).data },
  // As milliseconds: a cursor's filter text has no `:`.
  since: {
    write: (since) => String(Date.parse(since)),
    read: (text) =>
      /^\d{1,15}$/.test(text) && Number(text) <= 8.64e15
        ? new Date(Number(text)).toISOString()
        : undefined,
  },
  after: {
    write: (after) => after,
    read: (text) => (EVENT_ID_PATTERN.test(text) ? text : undefined),
  },
});

export const ZListEventsQuery = z.object({
  limit: ZLimitQuery,
  type: extendApi(ZEventType.optional(), {
    description: 'Only events of this type. Omit for every type.',
  }),
  since: ZSinceQuery,
  after: ZAfterQuery,
  cursor: ZCursorQuery,
});
export type TListEventsQuery = z.infer<typeof ZListEventsQuery>;

/** The number an event id carries (EVENT_ID_PATTERN), within the ids a list may name. */
export const eventNumberOf = (id: string): bigint | undefined => {
  if (!EVENT_ID_PATTERN.test(id)) {
    return undefined;
  }
  const number = BigInt(id.slice(4));
  return number <= BigInt(MAX_ID) ? number : undefined;
};
