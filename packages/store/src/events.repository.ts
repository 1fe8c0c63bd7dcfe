// The light entries at run time (the bench's floor loads the pets repository, which records events).
import { type TPage, toPage } from '@pets/contract/rules';
import {
  EVENTS_CURSOR,
  eventIdOf,
  type TEvent,
  type TEventsListFilters,
  type TEventType,
  type TOrder,
  type TPet,
} from '@pets/contract/schemas';
import { prepare, prepareShapes, sql, type TQueryable } from '@pets/db';
import type { Pool } from 'pg';
import { rfc3339 } from './sql-time';

/**
 * The events table: what changed, written by the repositories in the transaction of each change
 * (so an event exists exactly when its change was committed), with the resource as the API
 * returned it just after. Read newest first by `GET /v1/events`; deleted after
 * EVENT_RETENTION_DAYS.
 */

/** An event to record: its type, the resource, and who besides staff may read it (null: all). */
export type TNewEvent =
  | { type: TEventType & `pet.${string}`; data: TPet; apiKeyId?: undefined }
  | { type: TEventType & `order.${string}`; data: TOrder; apiKeyId: bigint | string };

/** Every event of a change in one statement: `events` is a JSON array of the rows. */
const INSERT_STATEMENT = prepare((db, p: { events: string }) =>
  db
    .insertInto('events')
    .columns(['type', 'api_key_id', 'data'])
    .expression(
      db
        .selectFrom(
          sql<{
            type: string;
            api_key_id: string | null;
            data: unknown;
          }>`jsonb_to_recordset(${p.events}::jsonb)`.as<'e'>(
            sql`e(type text, api_key_id bigint, data jsonb)`,
          ),
        )
        .select(['e.type', 'e.api_key_id', 'e.data']),
    ),
);

/** Records `events` on `client`'s transaction, in the order given. */
export const recordEvents = async (
  client: TQueryable,
  events: readonly TNewEvent[],
): Promise<void> => {
  if (events.length === 0) {
    return;
  }
  await INSERT_STATEMENT.execute(client, {
    events: JSON.stringify(
      events.map((event) => ({
        type: event.type,
        api_key_id: event.apiKeyId === undefined ? null : String(event.apiKeyId),
        data: event.data,
      })),
    ),
  });
};

type TListParams = {
  apiKeyId: string;
  type: string;
  since: string;
  after: string;
  before: string;
  limit: number;
};

/**
 * The list statements, one per filter shape: a partner's events are those of no key (animals')
 * and its own (orders'), newest first by the primary key.
 */
const LIST_STATEMENTS = prepareShapes(
  ['apiKeyId', 'type', 'since', 'after', 'before'],
  (db, p: TListParams, has) => {
    let query = db
      .selectFrom('events')
      .select(['id', 'type', rfc3339('created_at').as('createdAt'), 'data']);
    if (has('apiKeyId')) {
      query = query.where((eb) =>
        eb.or([eb('api_key_id', 'is', null), eb('api_key_id', '=', p.apiKeyId)]),
      );
    }
    if (has('type')) {
      query = query.where('type', '=', p.type);
    }
    if (has('since')) {
      query = query.where('created_at', '>=', sql<Date>`${p.since}::timestamptz`);
    }
    if (has('after')) {
      query = query.where('id', '>', p.after);
    }
    if (has('before')) {
      query = query.where('id', '<', p.before);
    }
    return query.orderBy('id', 'desc').limit(p.limit);
  },
);

/** The oldest events, up to `limit` of them, recorded before `before`: deleted. */
const PRUNE_STATEMENT = prepare((db, p: { before: Date; limit: number }) =>
  db
    .deleteFrom('events')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('events')
        .select('id')
        .where('created_at', '<', p.before)
        .orderBy('created_at')
        .limit(p.limit),
    ),
);

/** Whose events a caller sees: every one (staff, null), or the animals' and its own orders'. */
export type TEventScope = { apiKeyId: bigint | null };

export type TEventFilter = TEventsListFilters & {
  limit: number;
  before?: bigint | undefined;
};

export class EventsRepository {
  constructor(private readonly pool: Pool) {}

  /** The events visible in `scope`, newest first, as a keyset page whose cursor keeps the filters. */
  async list(scope: TEventScope, filter: TEventFilter): Promise<TPage<TEvent>> {
    const { limit, type, since, after, before } = filter;
    // An absent filter's value is empty: it picks the shape without that filter.
    const { rows } = await LIST_STATEMENTS.execute(this.pool, {
      apiKeyId: scope.apiKeyId === null ? '' : String(scope.apiKeyId),
      type: type ?? '',
      since: since ?? '',
      after: after === undefined ? '' : after.slice('evt_'.length),
      before: before === undefined ? '' : String(before),
      limit: limit + 1,
    });
    const page = toPage(rows, limit, EVENTS_CURSOR, { type, since, after });
    return {
      items: page.items.map(
        (row) =>
          ({
            id: eventIdOf(row.id),
            type: row.type,
            createdAt: row.createdAt,
            data: row.data,
          }) as TEvent,
      ),
      nextCursor: page.nextCursor,
    };
  }

  /** Deletes the events recorded before `before`, at most `limit`; answers how many. */
  async prune(before: Date, limit: number): Promise<number> {
    const result = await PRUNE_STATEMENT.execute(this.pool, { before, limit });
    return result.rowCount ?? 0;
  }
}
