import { Injectable } from '@nestjs/common';
import {
  contract,
  EVENTS_CURSOR,
  type TEvent,
  type TListEventsQuery,
  type TPage,
} from '@pets/contract';
import { EventsRepository } from '@pets/store/events.repository';
import type { TCaller } from '../../api-keys/caller';
import { listPage, type TListPage } from '../../http/pagination';

/**
 * The events a caller may read: every animal's, and the adoption-order events of orders its key
 * placed; a staff key every event. The same rule as reading the resources themselves.
 */
@Injectable()
export class EventsService {
  constructor(private readonly events: EventsRepository) {}

  /** A page of events, newest first; the cursor carries the filters (see PetsService.list). */
  list(caller: TCaller, query: TListEventsQuery): Promise<TListPage<TPage<TEvent>>> {
    const scope = { apiKeyId: caller.role === 'staff' ? null : caller.apiKeyId };
    return listPage(EVENTS_CURSOR, contract.events.listEvents.path, query, (filters, before) =>
      this.events.list(scope, { ...filters, before }),
    );
  }
}
