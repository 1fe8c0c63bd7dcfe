import { ALL_EVENT_TYPES } from '@pets/contract';

/** An endpoint's events as a person reads them: "every event", or the types listed. */
export const eventsInWords = (events: readonly string[]): string =>
  events.includes(ALL_EVENT_TYPES) ? 'Every event' : events.join(', ');
