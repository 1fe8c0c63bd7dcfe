import { initContract } from '@ts-rest/core';
import { EVENT_RETENTION_DAYS, ZEvents, ZListEventsQuery } from '../schemas/event';
import { notModified } from './conditional';
import { errors } from './errors';

const c = initContract();

export const eventsRouter = c.router({
  listEvents: {
    method: 'GET',
    path: '/events',
    summary: 'List events',
    description:
      'What changed, newest first, at most `limit` of them, each with the resource as it was ' +
      'just after the change: every animal event, and the adoption-order events of orders the ' +
      'key placed (every order event for a staff key). Filter with `type`, `since` (an instant) ' +
      'and `after` (an event id: only the events recorded after it); further pages as for ' +
      `\`GET /v1/pets\`. Events are kept ${EVENT_RETENTION_DAYS} days. An event is listed once ` +
      'the change it reports is committed; a change that commits late may appear below events ' +
      'recorded after it began, so resume with `after` an event a minute older than the newest ' +
      'you have, and skip the ids you have seen.',
    query: ZListEventsQuery,
    responses: {
      ...notModified,
      200: ZEvents,
      ...errors(400),
    },
  },
});
