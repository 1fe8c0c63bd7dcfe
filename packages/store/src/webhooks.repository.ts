import { randomBytes } from 'node:crypto';
import {
  ALL_EVENT_TYPES,
  type TPage,
  type TWebhookAttempt,
  type TWebhookDeliveriesListFilters,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  toPage,
  WEBHOOK_DELIVERIES_CURSOR,
  WEBHOOK_ENDPOINTS_CURSOR,
  WEBHOOK_RESPONSE_BODY_MAX_BYTES,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_TEST_EVENT_TYPE,
  webhookDeliveryIdOf,
  webhookEndpointIdOf,
  webhookTestMessageIdOf,
} from '@pets/contract';
import { prepare, prepareShapes, sql } from '@pets/db';
import type { Pool, PoolClient } from 'pg';
import { seal, sealingKey, unseal } from './sealed';
import { rfc3339 } from './sql-time';
import { withTransaction } from './transaction';

/**
 * The webhook tables: endpoints (one key's, with its encrypted secret and the fan-out's cursor),
 * deliveries (one event for one endpoint, with its retry state) and attempts. The API's worker
 * fans events out to deliveries and sends them; the endpoints' operations read and change them.
 */

/** The signing_keys row whose 32 bytes encrypt the endpoints' secrets (AES-256-GCM). */
const SECRETS_KEY_NAME = 'webhook-secrets';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'event_types as eventTypes',
  'description',
  'status',
  'disabled_reason as disabledReason',
  rfc3339('created_at').as('createdAt'),
  rfc3339('updated_at').as('updatedAt'),
] as const;

type TEndpointRow = {
  id: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  status: string;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
};

const toEndpoint = (row: TEndpointRow): TWebhookEndpoint => ({
  id: webhookEndpointIdOf(row.id),
  url: row.url,
  events: row.eventTypes as TWebhookEndpoint['events'],
  description: row.description,
  status: row.status as TWebhookEndpoint['status'],
  disabledReason: row.disabledReason,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * A new endpoint starts after the events whose transactions had ended when it was registered:
 * its cursor is the oldest transaction still running (pg_snapshot_xmin), so an event committed
 * by a transaction that was running then is sent too.
 */
const XMIN = sql<string>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

const INSERT_ENDPOINT = prepare(
  (
    db,
    p: {
      apiKeyId: string;
      url: string;
      eventTypes: string[];
      description: string | null;
      secret: string;
    },
  ) =>
    db
      .insertInto('webhook_endpoints')
      .values({
        api_key_id: p.apiKeyId,
        url: p.url,
        event_types: p.eventTypes,
        description: p.description,
        secret: p.secret,
        cursor_xact_id: XMIN,
      })
      .returning(ENDPOINT_COLUMNS),
);

/** The endpoint's sending side, made with it: no lease, not failing. */
const INSERT_LEASE = prepare((db, p: { endpointId: string }) =>
  db.insertInto('webhook_endpoint_leases').values({ endpoint_id: p.endpointId }),
);

/**
 * Whoever registers endpoints for a key waits here while another registration of the same key's
 * organisation (or of the key, without one) counts and inserts: two at once cannot both take the
 * last place. The organisation's, if any, answered once the lock is held.
 */
const LOCK_REGISTRATIONS = prepare((db, p: { apiKeyId: string }) =>
  db
    .selectFrom('api_keys')
    .select([
      'organization_id as organizationId',
      sql<string>`pg_advisory_xact_lock(hashtextextended(coalesce('organization:' || organization_id, 'key:' || id), 26))::text`.as(
        'locked',
      ),
    ])
    .where('id', '=', p.apiKeyId),
);

/** The key's endpoints, and those of every key of its organisation that still works. */
const COUNT_ENDPOINTS = prepare((db, p: { apiKeyId: string; organizationId: string | null }) =>
  db
    .selectFrom('webhook_endpoints as w')
    .innerJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .select([
      sql<string>`count(*) filter (where w.api_key_id = ${p.apiKeyId}::bigint)`.as('ofKey'),
      sql<string>`count(*) filter (where k.revoked_at is null)`.as('ofOrganization'),
    ])
    .where((eb) =>
      eb.or([
        eb('w.api_key_id', '=', p.apiKeyId),
        eb('k.organization_id', '=', sql<string>`${p.organizationId}::bigint`),
      ]),
    ),
);

const GET_ENDPOINT = prepare((db, p: { id: string; apiKeyId: string }) =>
  db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('id', '=', p.id)
    .where('api_key_id', '=', p.apiKeyId),
);

const LIST_ENDPOINTS = prepareShapes(
  ['before'],
  (db, p: { apiKeyId: string; before: string; limit: number }, has) => {
    let query = db
      .selectFrom('webhook_endpoints')
      .select(ENDPOINT_COLUMNS)
      .where('api_key_id', '=', p.apiKeyId);
    if (has('before')) {
      query = query.where('id', '<', p.before);
    }
    return query.orderBy('id', 'desc').limit(p.limit);
  },
);

/**
 * Changes the given fields (`has*` false: kept). Enabling a disabled endpoint clears its reason
 * and moves its cursor to now: the events of the pause are for `GET /v1/events`, not a flood.
 */
const UPDATE_ENDPOINT = prepare(
  (
    db,
    p: {
      id: string;
      apiKeyId: string;
      hasUrl: boolean;
      url: string;
      hasEvents: boolean;
      eventTypes: string[];
      hasDescription: boolean;
      description: string | null;
      status: string | null;
    },
  ) =>
    db
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        url: eb
          .case()
          .when(sql<boolean>`${p.hasUrl}::boolean`)
          .then(p.url)
          .else(eb.ref('url'))
          .end(),
        event_types: eb
          .case()
          .when(sql<boolean>`${p.hasEvents}::boolean`)
          .then(sql<string[]>`${p.eventTypes}::text[]`)
          .else(eb.ref('event_types'))
          .end(),
        description: eb
          .case()
          .when(sql<boolean>`${p.hasDescription}::boolean`)
          .then(sql<string | null>`${p.description}::text`)
          .else(eb.ref('description'))
          .end(),
        status: sql<string>`coalesce(${p.status}::text, status)`,
        disabled_reason: sql<
          string | null
        >`case when coalesce(${p.status}::text, status) = 'enabled' then null else coalesce(disabled_reason, 'Disabled by its key.') end`,
        cursor_xact_id: sql<string>`case when status = 'disabled' and ${p.status}::text = 'enabled' then ${XMIN} else cursor_xact_id end`,
        cursor_event_id: sql<string>`case when status = 'disabled' and ${p.status}::text = 'enabled' then 0 else cursor_event_id end`,
        updated_at: sql<Date>`now()`,
      }))
      .where('id', '=', p.id)
      .where('api_key_id', '=', p.apiKeyId)
      .returning(ENDPOINT_COLUMNS),
);

const DELETE_ENDPOINT = prepare((db, p: { id: string; apiKeyId: string }) =>
  db.deleteFrom('webhook_endpoints').where('id', '=', p.id).where('api_key_id', '=', p.apiKeyId),
);

/** The new secret signs; the one it replaces keeps signing until `expiresAt`. */
const ROTATE_SECRET = prepare(
  (db, p: { id: string; apiKeyId: string; secret: string; expiresAt: Date }) =>
    db
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret: eb.ref('secret'),
        previous_secret_expires_at: p.expiresAt,
        secret: p.secret,
        updated_at: sql<Date>`now()`,
      }))
      .where('id', '=', p.id)
      .where('api_key_id', '=', p.apiKeyId)
      .returning(ENDPOINT_COLUMNS),
);

const DELIVERY_COLUMNS = [
  'd.id',
  'd.event_id as eventId',
  'd.event_type as eventType',
  'd.status',
  rfc3339('d.created_at').as('createdAt'),
  sql<string | null>`case when d.status = 'pending' then ${rfc3339('d.next_attempt_at')} end`.as(
    'nextAttemptAt',
  ),
  sql<TWebhookAttempt[]>`coalesce((
    select jsonb_agg(jsonb_build_object(
      'at', ${rfc3339('a.at')},
      'statusCode', a.status_code, 'durationMs', a.duration_ms, 'error', a.error,
      'responseBody', a.response_body) order by a.id)
    from (select * from webhook_attempts where delivery_id = d.id order by id desc limit 100) a
  ), '[]'::jsonb)`.as('attempts'),
] as const;

type TDeliveryRow = {
  id: string;
  eventId: string | null;
  eventType: string;
  status: string;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: TWebhookAttempt[];
};

const toDelivery = (row: TDeliveryRow): TWebhookDelivery => ({
  id: webhookDeliveryIdOf(row.id),
  eventId: row.eventId === null ? webhookTestMessageIdOf(row.id) : `evt_${row.eventId}`,
  eventType: row.eventType,
  status: row.status as TWebhookDelivery['status'],
  createdAt: row.createdAt,
  nextAttemptAt: row.nextAttemptAt,
  attempts: row.attempts,
});

const LIST_DELIVERIES = prepareShapes(
  ['status', 'before'],
  (db, p: { endpointId: string; status: string; before: string; limit: number }, has) => {
    let query = db
      .selectFrom('webhook_deliveries as d')
      .select(DELIVERY_COLUMNS)
      .where('d.endpoint_id', '=', p.endpointId);
    if (has('status')) {
      query = query.where('d.status', '=', p.status);
    }
    if (has('before')) {
      query = query.where('d.id', '<', p.before);
    }
    return query.orderBy('d.id', 'desc').limit(p.limit);
  },
);

const GET_DELIVERY = prepare((db, p: { id: string; endpointId: string }) =>
  db
    .selectFrom('webhook_deliveries as d')
    .select(DELIVERY_COLUMNS)
    .where('d.id', '=', p.id)
    .where('d.endpoint_id', '=', p.endpointId),
);

/** A test delivery: its payload gets its own id once the row has one (`test_<n>`). */
const INSERT_TEST_DELIVERY = prepare((db, p: { endpointId: string; type: string }) =>
  db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: p.endpointId,
      event_type: p.type,
      payload: sql`'{}'::jsonb`,
      next_attempt_at: sql<Date>`now()`,
    })
    .returning(['id']),
);

const FILL_TEST_PAYLOAD = prepare((db, p: { id: string; endpointPublicId: string }) =>
  db
    .updateTable('webhook_deliveries')
    .set({
      payload: sql`jsonb_build_object('id', 'test_' || id, 'type', event_type, 'createdAt',
        ${rfc3339('created_at')},
        'data', jsonb_build_object('endpointId', ${p.endpointPublicId}::text))`,
    })
    .where('id', '=', p.id),
);

/** Due now, with the schedule started afresh (a retry). A delivery in flight is left alone. */
const RETRY_DELIVERY = prepare((db, p: { id: string; endpointId: string }) =>
  db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: sql<Date>`now()`,
    })
    .where('id', '=', p.id)
    .where('endpoint_id', '=', p.endpointId)
    .where((eb) =>
      eb.or([eb('status', '!=', 'pending'), eb('next_attempt_at', '>', sql<Date>`now()`)]),
    ),
);

// The worker's statements.

/**
 * Enabled endpoints of keys not revoked, locked for this fan-out: another process's fan-out
 * skips them (SKIP LOCKED) rather than handing their events out twice. With the position up to
 * which every transaction has ended.
 */
const LOCK_ENDPOINTS = prepare((db, p: { afterId: string; limit: number }) =>
  db
    .selectFrom('webhook_endpoints as w')
    .innerJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .select([
      'w.id',
      'w.api_key_id as apiKeyId',
      sql<boolean>`k.role = 'staff'`.as('isStaff'),
      'w.event_types as eventTypes',
      'w.cursor_xact_id as cursorXactId',
      'w.cursor_event_id as cursorEventId',
      XMIN.as('xmin'),
    ])
    .where('w.status', '=', 'enabled')
    .where('k.revoked_at', 'is', null)
    .where('w.id', '>', p.afterId)
    .orderBy('w.id')
    .limit(p.limit)
    .forUpdate('w')
    .skipLocked(),
);

/**
 * The events after an endpoint's cursor whose transactions (and every one before them) have
 * ended, in transaction order: an event of a transaction still running can only come later, so
 * moving the cursor past these never skips one.
 */
const EVENTS_AFTER = prepare(
  (db, p: { cursorXactId: string; cursorEventId: string; xmin: string; limit: number }) =>
    db
      .selectFrom('events')
      .select(['id', 'xact_id as xactId', 'type', 'api_key_id as apiKeyId'])
      .where(sql<boolean>`(xact_id, id) > (${p.cursorXactId}::bigint, ${p.cursorEventId}::bigint)`)
      .where('xact_id', '<', p.xmin)
      .orderBy('xact_id')
      .orderBy('id')
      .limit(p.limit),
);

/** One delivery per event, with the event as `GET /v1/events` lists it; once (ON CONFLICT). */
const INSERT_DELIVERIES = prepare((db, p: { endpointId: string; eventIds: string[] }) =>
  db
    .insertInto('webhook_deliveries')
    .columns(['endpoint_id', 'event_id', 'event_type', 'payload', 'next_attempt_at'])
    .expression(
      db
        .selectFrom('events')
        .select([
          sql<string>`${p.endpointId}::bigint`.as('endpoint_id'),
          'id',
          'type',
          sql`jsonb_build_object('id', 'evt_' || id, 'type', type, 'createdAt',
            ${rfc3339('created_at')}, 'data', data)`.as('payload'),
          sql<Date>`now()`.as('next_attempt_at'),
        ])
        .where('id', '=', sql<string>`any(${p.eventIds}::bigint[])`)
        // In the order the fan-out reads them (the events' recording order): a delivery's id is
        // its place in the endpoint's queue.
        .orderBy('xact_id')
        .orderBy('id'),
    )
    .onConflict((conflict) => conflict.columns(['endpoint_id', 'event_id']).doNothing()),
);

const MOVE_CURSOR = prepare((db, p: { id: string; cursorXactId: string; cursorEventId: string }) =>
  db
    .updateTable('webhook_endpoints')
    .set({ cursor_xact_id: p.cursorXactId, cursor_event_id: p.cursorEventId })
    .where('id', '=', p.id),
);

/**
 * Claims due deliveries, at most one per endpoint across every process: each claimed delivery's
 * endpoint is leased (its `webhook_endpoint_leases` row: until when, and a token of this claim)
 * and so is the delivery (its next attempt moved `leaseSeconds` on), so no other worker sends to
 * that endpoint meanwhile, and a worker that dies mid-attempt leaves both to be taken again when
 * the lease ends: at least once. For each endpoint not leased, its oldest due delivery (one after
 * the other, in order); of those, the oldest first, at most `good` of endpoints whose last attempt
 * did not fail and at most `failing` of endpoints whose last attempt failed, so that failing
 * endpoints only ever take their own share of the senders. A disabled endpoint's deliveries wait,
 * except tests.
 */
const CLAIM_DELIVERIES = prepare((db, p: { good: number; failing: number; leaseSeconds: number }) =>
  db
    .with('due', (qb) =>
      qb
        .selectFrom('webhook_deliveries as o')
        .innerJoin('webhook_endpoints as e', 'e.id', 'o.endpoint_id')
        .innerJoin('webhook_endpoint_leases as l', 'l.endpoint_id', 'o.endpoint_id')
        .innerJoin('api_keys as k', 'k.id', 'e.api_key_id')
        .distinctOn('o.endpoint_id')
        .select([
          'o.endpoint_id as endpointId',
          'o.id as deliveryId',
          sql<boolean>`l.failing_since is not null`.as('isFailing'),
        ])
        .where('o.status', '=', 'pending')
        .where('o.next_attempt_at', '<=', sql<Date>`now()`)
        .where('k.revoked_at', 'is', null)
        .where((where) =>
          where.or([where('e.status', '=', 'enabled'), where('o.event_id', 'is', null)]),
        )
        .where(sql<boolean>`(l.lease_until is null or l.lease_until <= now())`)
        .orderBy('o.endpoint_id')
        .orderBy('o.id'),
    )
    .with('picked', (qb) =>
      qb
        .selectFrom(
          qb
            .selectFrom('due')
            .select([
              'endpointId',
              'deliveryId',
              'isFailing',
              sql<number>`row_number() over (partition by "isFailing" order by "deliveryId")`.as(
                'place',
              ),
            ])
            .as('ranked'),
        )
        .select(['endpointId', 'deliveryId'])
        .where(
          sql<boolean>`place <= case when "isFailing" then ${p.failing}::int else ${p.good}::int end`,
        ),
    )
    // Locked, and the lease checked again on the row as it is now: another worker may have
    // taken it since this statement's snapshot (one holding it now is skipped).
    .with('locked', (qb) =>
      qb
        .selectFrom('webhook_endpoint_leases as f')
        .innerJoin('picked', 'picked.endpointId', 'f.endpoint_id')
        .select(['f.endpoint_id as endpointId', 'picked.deliveryId'])
        .where(sql<boolean>`(f.lease_until is null or f.lease_until <= now())`)
        .forUpdate('f')
        .skipLocked(),
    )
    // Still due on the row as it is now: another worker may have sent it meanwhile, and then
    // the endpoint is not leased either.
    .with('claimed', (qb) =>
      qb
        .updateTable('webhook_deliveries as d')
        .from('locked')
        .set({
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${p.leaseSeconds}::float8)`,
          attempt_count: sql<number>`d.attempt_count + 1`,
        })
        .whereRef('d.id', '=', 'locked.deliveryId')
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', sql<Date>`now()`)
        .returning([
          'd.id',
          'd.endpoint_id as endpointId',
          'd.payload',
          'd.attempt_count as attemptCount',
          rfc3339('d.created_at').as('createdAt'),
        ]),
    )
    .updateTable('webhook_endpoint_leases as g')
    .from('claimed')
    .innerJoin('webhook_endpoints as w', 'w.id', 'claimed.endpointId')
    .set({
      lease_until: sql<Date>`now() + make_interval(secs => ${p.leaseSeconds}::float8)`,
      lease_token: sql<string>`gen_random_uuid()`,
    })
    .whereRef('g.endpoint_id', '=', 'claimed.endpointId')
    .returning([
      'claimed.id',
      'claimed.endpointId',
      'claimed.payload',
      'claimed.attemptCount',
      'claimed.createdAt',
      'w.url',
      'w.secret',
      sql<string>`g.lease_token::text`.as('leaseToken'),
      sql<boolean>`g.failing_since is not null`.as('isFailing'),
      sql<
        string | null
      >`case when w.previous_secret_expires_at > now() then w.previous_secret end`.as(
        'previousSecret',
      ),
    ]),
);

const INSERT_ATTEMPT = prepare(
  (
    db,
    p: {
      deliveryId: string;
      at: Date;
      statusCode: number | null;
      durationMs: number;
      error: string | null;
      responseBody: string | null;
    },
  ) =>
    db.insertInto('webhook_attempts').values({
      delivery_id: p.deliveryId,
      at: p.at,
      status_code: p.statusCode,
      duration_ms: p.durationMs,
      error: p.error,
      response_body: p.responseBody,
    }),
);

/** The delivery's state after an attempt: succeeded, failed, or pending until `nextAttemptAt`. */
const SETTLE_DELIVERY = prepare(
  (db, p: { id: string; status: string; nextAttemptAt: Date | null }) =>
    db
      .updateTable('webhook_deliveries')
      .set({ status: p.status, next_attempt_at: p.nextAttemptAt })
      .where('id', '=', p.id),
);

/**
 * The endpoint after an attempt: failing since then (or still), or not failing; and its lease
 * given back, if this claim still holds it (one that outlived its lease has lost it to another).
 */
const RELEASE_ENDPOINT = prepare(
  (db, p: { id: string; leaseToken: string; isSuccess: boolean; at: Date }) =>
    db
      .updateTable('webhook_endpoint_leases')
      .set({
        failing_since: sql<Date | null>`case when ${p.isSuccess}::boolean then null else coalesce(failing_since, ${p.at}::timestamptz) end`,
        lease_until: sql<Date | null>`case when lease_token = ${p.leaseToken}::uuid then null else lease_until end`,
        lease_token: sql<
          string | null
        >`case when lease_token = ${p.leaseToken}::uuid then null else lease_token end`,
      })
      .where('endpoint_id', '=', p.id),
);

/**
 * Disables an endpoint none of whose deliveries succeeded since `since` (the failed delivery's
 * creation: it failed for the whole retry schedule, and so did everything after it).
 */
const DISABLE_IF_FAILING = prepare((db, p: { id: string; since: string; reason: string }) =>
  db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: p.reason, updated_at: sql<Date>`now()` })
    .where('id', '=', p.id)
    .where('status', '=', 'enabled')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_attempts as a')
            .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
            .select('a.id')
            .where('d.endpoint_id', '=', p.id)
            .where('a.status_code', '>=', 200)
            .where('a.status_code', '<', 300)
            .where('a.at', '>=', sql<Date>`${p.since}::timestamptz`),
        ),
      ),
    )
    .returning(['id', 'url']),
);

/**
 * The people an endpoint belongs to, told when it is disabled: the members of the organisation
 * whose key registered it, the person a session credential belongs to, and whoever made the key;
 * active accounts only. An operator's key (`pnpm keys create`) has none: its deliveries list says it.
 */
const OWNERS_OF_ENDPOINT = prepare((db, p: { id: string }) =>
  db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('api_keys as k', 'k.id', 'e.api_key_id')
    .innerJoin('accounts as a', (join) =>
      join.on((eb) =>
        eb.or([
          eb('a.organization_id', '=', eb.ref('k.organization_id')),
          eb('a.id', '=', eb.ref('k.account_id')),
          eb('a.id', '=', eb.ref('k.created_by_account_id')),
        ]),
      ),
    )
    .where('e.id', '=', p.id)
    .where('a.status', '=', 'active')
    .select(['a.email', 'a.name', 'k.name as keyName', 'k.start as keyStart'])
    .distinct()
    .orderBy('a.email'),
);

/** What the email to an endpoint's owners says (the API's `webhook-disabled` template). */
export type TWebhookDisabledMailData = {
  name: string;
  endpointId: string;
  url: string;
  reason: string;
  keyName: string;
  keyStart: string;
};

/** The outbox a disabled endpoint's email goes through, on the transaction that disables it. */
export type TWebhookMailOutbox = {
  enqueue: (
    client: PoolClient,
    ...mails: { template: 'webhook-disabled'; to: string; data: TWebhookDisabledMailData }[]
  ) => Promise<void>;
};

/**
 * Test deliveries older than `before`, at most `limit`: the others go with their events
 * (ON DELETE CASCADE), which are kept EVENT_RETENTION_DAYS.
 */
const PRUNE_TEST_DELIVERIES = prepare((db, p: { before: Date; limit: number }) =>
  db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('event_id', 'is', null)
        .where('created_at', '<', p.before)
        .limit(p.limit),
    ),
);

export type TClaimedDelivery = {
  id: string;
  endpointId: string;
  /** The `webhook-id`: the event's id, or `test_<n>`. */
  messageId: string;
  /** The exact body to send. */
  body: string;
  /** How many attempts this one is (1 for the first). */
  attempt: number;
  createdAt: string;
  url: string;
  /** The secrets to sign with, decrypted: the current one, and the previous during the overlap. */
  secrets: string[];
  /** The claim's hold on the endpoint, given back when the attempt is recorded. */
  leaseToken: string;
  /** Whether the endpoint's last attempt failed: it is sent from the failing endpoints' share. */
  isFailing: boolean;
};

export type TAttemptResult = {
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
};

/** How many events one fan-out hands to one endpoint at most. */
const FAN_OUT_BATCH = 500;

export class WebhooksRepository {
  /** The key that encrypts secrets, read once (made by the first process that needs it). */
  private readonly key: () => Promise<Buffer>;

  /** `mail`: where a disabled endpoint's owners are told; without it, only its deliveries say so. */
  constructor(
    private readonly pool: Pool,
    private readonly mail?: TWebhookMailOutbox,
  ) {
    this.key = sealingKey(pool, SECRETS_KEY_NAME);
  }

  /**
   * Registers an endpoint for the key, unless the key has `limits.perKey` endpoints already, or
   * the keys of its organisation that still work have `limits.perOrganization` (counted under a
   * lock of the organisation, or of the key without one: two at once cannot both take the last
   * place).
   */
  async create(
    apiKeyId: bigint,
    input: { url: string; eventTypes: string[]; description: string | null },
    limits: { perKey: number; perOrganization: number },
  ): Promise<
    { endpoint: TWebhookEndpoint & { secret: string } } | { refused: 'key' | 'organization' }
  > {
    const secret = newWebhookSecret();
    const sealed = seal(await this.key(), secret);
    return withTransaction(this.pool, async (client) => {
      const { rows: keys } = await LOCK_REGISTRATIONS.execute(client, {
        apiKeyId: String(apiKeyId),
      });
      const organizationId = keys[0]?.organizationId ?? null;
      const { rows: counts } = await COUNT_ENDPOINTS.execute(client, {
        apiKeyId: String(apiKeyId),
        organizationId: organizationId === null ? null : String(organizationId),
      });
      if (Number(counts[0]?.ofKey ?? 0) >= limits.perKey) {
        return { refused: 'key' as const };
      }
      if (
        organizationId !== null &&
        Number(counts[0]?.ofOrganization ?? 0) >= limits.perOrganization
      ) {
        return { refused: 'organization' as const };
      }
      const { rows } = await INSERT_ENDPOINT.execute(client, {
        apiKeyId: String(apiKeyId),
        url: input.url,
        eventTypes: input.eventTypes,
        description: input.description,
        secret: sealed,
      });
      const row = rows[0];
      if (!row) {
        throw new Error('webhook_endpoints: the insert returned no row');
      }
      await INSERT_LEASE.execute(client, { endpointId: row.id });
      return { endpoint: { ...toEndpoint(row), secret } };
    });
  }

  async get(apiKeyId: bigint, id: bigint): Promise<TWebhookEndpoint | null> {
    const { rows } = await GET_ENDPOINT.execute(this.pool, {
      id: String(id),
      apiKeyId: String(apiKeyId),
    });
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async list(
    apiKeyId: bigint,
    filter: { limit: number; before?: bigint | undefined },
  ): Promise<TPage<TWebhookEndpoint>> {
    const { rows } = await LIST_ENDPOINTS.execute(this.pool, {
      apiKeyId: String(apiKeyId),
      before: filter.before === undefined ? '' : String(filter.before),
      limit: filter.limit + 1,
    });
    const page = toPage(rows, filter.limit, WEBHOOK_ENDPOINTS_CURSOR, {});
    return { items: page.items.map(toEndpoint), nextCursor: page.nextCursor };
  }

  async update(
    apiKeyId: bigint,
    id: bigint,
    change: {
      url?: string | undefined;
      eventTypes?: string[] | undefined;
      description?: string | null | undefined;
      status?: 'enabled' | 'disabled' | undefined;
    },
  ): Promise<TWebhookEndpoint | null> {
    const { rows } = await UPDATE_ENDPOINT.execute(this.pool, {
      id: String(id),
      apiKeyId: String(apiKeyId),
      hasUrl: change.url !== undefined,
      url: change.url ?? '',
      hasEvents: change.eventTypes !== undefined,
      eventTypes: change.eventTypes ?? [],
      hasDescription: change.description !== undefined,
      description: change.description ?? null,
      status: change.status ?? null,
    });
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async delete(apiKeyId: bigint, id: bigint): Promise<boolean> {
    const result = await DELETE_ENDPOINT.execute(this.pool, {
      id: String(id),
      apiKeyId: String(apiKeyId),
    });
    return (result.rowCount ?? 0) > 0;
  }

  async rotateSecret(
    apiKeyId: bigint,
    id: bigint,
    now: number = Date.now(),
  ): Promise<(TWebhookEndpoint & { secret: string }) | null> {
    const secret = newWebhookSecret();
    const { rows } = await ROTATE_SECRET.execute(this.pool, {
      id: String(id),
      apiKeyId: String(apiKeyId),
      secret: seal(await this.key(), secret),
      expiresAt: new Date(now + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000),
    });
    return rows[0] ? { ...toEndpoint(rows[0]), secret } : null;
  }

  /** Queues a test event for the endpoint (which the caller has found to be its own). */
  async createTestDelivery(endpointId: bigint): Promise<TWebhookDelivery> {
    const id = await withTransaction(this.pool, async (client) => {
      const { rows } = await INSERT_TEST_DELIVERY.execute(client, {
        endpointId: String(endpointId),
        type: WEBHOOK_TEST_EVENT_TYPE,
      });
      const row = rows[0];
      if (!row) {
        throw new Error('webhook_deliveries: the insert returned no row');
      }
      await FILL_TEST_PAYLOAD.execute(client, {
        id: row.id,
        endpointPublicId: webhookEndpointIdOf(endpointId),
      });
      return row.id;
    });
    const delivery = await this.getDelivery(endpointId, BigInt(id));
    if (!delivery) {
      throw new Error('webhook_deliveries: the new delivery was not found');
    }
    return delivery;
  }

  async getDelivery(endpointId: bigint, id: bigint): Promise<TWebhookDelivery | null> {
    const { rows } = await GET_DELIVERY.execute(this.pool, {
      id: String(id),
      endpointId: String(endpointId),
    });
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async listDeliveries(
    endpointId: bigint,
    filter: TWebhookDeliveriesListFilters & { limit: number; before?: bigint | undefined },
  ): Promise<TPage<TWebhookDelivery>> {
    const { rows } = await LIST_DELIVERIES.execute(this.pool, {
      endpointId: String(endpointId),
      status: filter.status ?? '',
      before: filter.before === undefined ? '' : String(filter.before),
      limit: filter.limit + 1,
    });
    const page = toPage(rows, filter.limit, WEBHOOK_DELIVERIES_CURSOR, { status: filter.status });
    return { items: page.items.map(toDelivery), nextCursor: page.nextCursor };
  }

  /** Deletes the test deliveries made before `before`, at most `limit`; answers how many. */
  async pruneTestDeliveries(before: Date, limit: number): Promise<number> {
    const result = await PRUNE_TEST_DELIVERIES.execute(this.pool, { before, limit });
    return result.rowCount ?? 0;
  }

  /** Makes the delivery due now with a fresh schedule; null when the endpoint has no such one. */
  async retryDelivery(endpointId: bigint, id: bigint): Promise<TWebhookDelivery | null> {
    await RETRY_DELIVERY.execute(this.pool, { id: String(id), endpointId: String(endpointId) });
    return this.getDelivery(endpointId, id);
  }

  /**
   * Hands the events recorded since each enabled endpoint's cursor to deliveries (those of its
   * types that its key may read) and moves the cursor, in one transaction whose endpoint rows
   * are locked: two processes never hand out the same endpoint's events. Answers how many
   * deliveries were made.
   */
  async fanOut(endpointBatch = 100): Promise<number> {
    let made = 0;
    let afterId = '0';
    for (;;) {
      // A transaction per batch of endpoints, walked by id: every endpoint gets its turn.
      const { count, lastId } = await withTransaction(this.pool, async (client) => {
        const { rows: endpoints } = await LOCK_ENDPOINTS.execute(client, {
          afterId,
          limit: endpointBatch,
        });
        for (const endpoint of endpoints) {
          made += await this.fanOutTo(client, endpoint);
        }
        return { count: endpoints.length, lastId: endpoints.at(-1)?.id };
      });
      if (count < endpointBatch || lastId === undefined) {
        return made;
      }
      afterId = lastId;
    }
  }

  private async fanOutTo(
    client: PoolClient,
    endpoint: {
      id: string;
      apiKeyId: string;
      isStaff: boolean;
      eventTypes: string[];
      cursorXactId: string;
      cursorEventId: string;
      xmin: string;
    },
  ): Promise<number> {
    const { rows: events } = await EVENTS_AFTER.execute(client, {
      cursorXactId: endpoint.cursorXactId,
      cursorEventId: endpoint.cursorEventId,
      xmin: endpoint.xmin,
      limit: FAN_OUT_BATCH,
    });
    const last = events[events.length - 1];
    if (!last) {
      return 0;
    }
    const isEveryType = endpoint.eventTypes.includes(ALL_EVENT_TYPES);
    const wanted = events.filter(
      (event) =>
        (isEveryType || endpoint.eventTypes.includes(event.type)) &&
        (endpoint.isStaff || event.apiKeyId === null || event.apiKeyId === endpoint.apiKeyId),
    );
    let made = 0;
    if (wanted.length > 0) {
      const result = await INSERT_DELIVERIES.execute(client, {
        endpointId: endpoint.id,
        eventIds: wanted.map((event) => event.id),
      });
      made = result.rowCount ?? 0;
    }
    await MOVE_CURSOR.execute(client, {
      id: endpoint.id,
      cursorXactId: last.xactId,
      cursorEventId: last.id,
    });
    return made;
  }

  /**
   * The oldest due delivery of endpoints no worker is sending to: up to `limits.good` endpoints
   * whose last attempt did not fail and `limits.failing` whose last attempt failed, each endpoint
   * leased for `leaseSeconds`, with their decrypted secrets. Oldest first.
   */
  async claim(
    limits: { good: number; failing: number },
    leaseSeconds: number,
  ): Promise<TClaimedDelivery[]> {
    if (limits.good <= 0 && limits.failing <= 0) {
      return [];
    }
    const { rows } = await CLAIM_DELIVERIES.execute(this.pool, {
      good: Math.max(0, limits.good),
      failing: Math.max(0, limits.failing),
      leaseSeconds,
    });
    if (rows.length === 0) {
      return [];
    }
    const key = await this.key();
    return rows
      .map((row) => {
        const payload = row.payload as { id: string };
        return {
          id: String(row.id),
          endpointId: String(row.endpointId),
          messageId: payload.id,
          body: JSON.stringify(row.payload),
          attempt: row.attemptCount,
          createdAt: row.createdAt,
          url: row.url,
          secrets: [row.secret, row.previousSecret]
            .filter((sealed): sealed is string => sealed !== null)
            .map((sealed) => unseal(key, sealed)),
          leaseToken: row.leaseToken,
          isFailing: row.isFailing,
        };
      })
      .sort((first, second) => Number(BigInt(first.id) - BigInt(second.id)));
  }

  /**
   * Records an attempt and the delivery's next state: succeeded, pending until `nextAttemptAt`,
   * or failed (null: the schedule is over), in which case an endpoint that has not succeeded
   * since the delivery was created is disabled with `disableReason`.
   */
  async settle(
    delivery: TClaimedDelivery,
    result: TAttemptResult,
    next: { isSuccess: boolean; nextAttemptAt: Date | null; disableReason: string },
  ): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      await INSERT_ATTEMPT.execute(client, {
        deliveryId: delivery.id,
        at: result.at,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error?.slice(0, 300) ?? null,
        responseBody: truncateUtf8(result.responseBody, WEBHOOK_RESPONSE_BODY_MAX_BYTES),
      });
      const status = next.isSuccess ? 'succeeded' : next.nextAttemptAt ? 'pending' : 'failed';
      await SETTLE_DELIVERY.execute(client, {
        id: delivery.id,
        status,
        nextAttemptAt: status === 'pending' ? next.nextAttemptAt : null,
      });
      await RELEASE_ENDPOINT.execute(client, {
        id: delivery.endpointId,
        leaseToken: delivery.leaseToken,
        isSuccess: next.isSuccess,
        at: result.at,
      });
      if (status === 'failed') {
        const { rows: disabled } = await DISABLE_IF_FAILING.execute(client, {
          id: delivery.endpointId,
          since: delivery.createdAt,
          reason: next.disableReason,
        });
        const endpoint = disabled[0];
        if (endpoint && this.mail) {
          const { rows: owners } = await OWNERS_OF_ENDPOINT.execute(client, { id: endpoint.id });
          await this.mail.enqueue(
            client,
            ...owners.map((owner) => ({
              template: 'webhook-disabled' as const,
              to: owner.email,
              data: {
                name: owner.name,
                endpointId: webhookEndpointIdOf(endpoint.id),
                url: endpoint.url,
                reason: next.disableReason,
                keyName: owner.keyName,
                keyStart: owner.keyStart,
              },
            })),
          );
        }
      }
    });
  }
}

/** At most `maxBytes` of `text`'s UTF-8, cut on a character boundary and without a NUL. */
const truncateUtf8 = (text: string | null, maxBytes: number): string | null => {
  if (text === null) {
    return null;
  }
  const clean = text.replaceAll('\u0000', '');
  let bytes = Buffer.from(clean, 'utf8').subarray(0, maxBytes).toString('utf8');
  // A character cut in half decodes as U+FFFD (3 bytes): drop it so the result fits.
  while (Buffer.byteLength(bytes, 'utf8') > maxBytes || bytes.endsWith('\uFFFD')) {
    bytes = bytes.slice(0, -1);
  }
  return bytes;
};
