import { sql } from '@pets/db';

/**
 * An instant of the database as the contract writes instants: RFC 3339, UTC, to the millisecond
 * (`2026-11-27T10:15:00.000Z`), formatted by PostgreSQL so that a row, a JSON document built in
 * SQL (an event's payload) and a history entry write it alike. `expression` is SQL of ours (a
 * column, or an expression of the clock), never a value from a request.
 */
export const rfc3339 = (expression: string) =>
  sql<string>`to_char(${sql.raw(expression)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
