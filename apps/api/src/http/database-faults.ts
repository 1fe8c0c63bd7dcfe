import { QUERY_READ_TIMEOUT } from '@pets/db';
import { AppError } from '../core/app-error';

/**
 * Which database failures a client sees as `503 service_unavailable` (retry later) and which as
 * `400 invalid_request` (the data itself was refused), whoever raised them: `pg` and its pool,
 * Node's sockets, or Prisma on top of them (its `P` codes wrap the driver's error, as
 * `meta.driverAdapterError.cause.originalCode`, or as `cause`). Everything else stays an
 * unexpected failure (`500`), as it should: a missing column is our bug, not an outage.
 *
 * The lists are PostgreSQL's SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html),
 * Node's socket errors, Prisma's codes and driver-adapter kinds, and `pg`'s own messages for the
 * failures it raises without a code.
 */

/**
 * `Retry-After` of a database `503`, in seconds: long enough for a restarted PostgreSQL to accept
 * connections again (a few seconds) without making clients wait longer than an outage lasts.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Why the database could not serve a request, in words for operators and for `/readyz`. */
export type TDatabaseFault =
  | 'unreachable'
  | 'connection_lost'
  | 'starting_or_stopping'
  | 'timeout'
  | 'busy'
  | 'closed';

export type TDatabaseErrorClass =
  | { kind: 'unavailable'; fault: TDatabaseFault }
  | { kind: 'refused_data' }
  | undefined;

const FAULT_BY_CODE: Record<string, TDatabaseFault> = {
  // Node's sockets.
  ECONNREFUSED: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ETIMEDOUT: 'unreachable',
  ECONNRESET: 'connection_lost',
  EPIPE: 'connection_lost',
  // PostgreSQL, class 08: connection exception (not 08P01, a protocol violation, which is a bug).
  '08000': 'connection_lost',
  '08001': 'unreachable',
  '08003': 'connection_lost',
  '08004': 'unreachable',
  '08006': 'connection_lost',
  '08007': 'connection_lost',
  // Class 57: operator intervention.
  '57014': 'timeout',
  '57P01': 'starting_or_stopping',
  '57P02': 'starting_or_stopping',
  '57P03': 'starting_or_stopping',
  '57P05': 'connection_lost',
  // Class 53: insufficient resources; class 58: system errors (I/O).
  '53000': 'busy',
  '53100': 'busy',
  '53200': 'busy',
  '53300': 'busy',
  '53400': 'busy',
  '58000': 'connection_lost',
  '58030': 'connection_lost',
  // A standby during a failover refuses writes.
  '25006': 'starting_or_stopping',
  // Prisma's connection-level codes.
  P1001: 'unreachable',
  P1002: 'timeout',
  P1008: 'timeout',
  P1017: 'connection_lost',
  P2024: 'busy',
  P2037: 'busy',
};

/** Prisma driver-adapter error kinds (`meta.driverAdapterError.cause.kind`). */
const FAULT_BY_KIND: Record<string, TDatabaseFault> = {
  DatabaseNotReachable: 'unreachable',
  ConnectionClosed: 'connection_lost',
  SocketTimeout: 'timeout',
  TooManyConnections: 'busy',
};

/** `pg` and `pg-pool` raise these without a code. */
const FAULT_BY_MESSAGE: Record<string, TDatabaseFault> = {
  'Connection terminated unexpectedly': 'connection_lost',
  'Connection terminated': 'connection_lost',
  'Connection terminated due to connection timeout': 'unreachable',
  'timeout expired': 'unreachable',
  'timeout exceeded when trying to connect': 'busy',
  [QUERY_READ_TIMEOUT]: 'timeout',
  'Client has encountered a connection error and is not queryable': 'connection_lost',
  'Client was closed and is not queryable': 'connection_lost',
  'Cannot use a pool after calling end on the pool': 'closed',
};

/**
 * Data PostgreSQL refuses to store or read: class 22 (data exception) codes a request's values can
 * cause (a NUL character is 22021, text the database encoding cannot hold 22P05, a value longer
 * than its column 22001, a number out of range 22003), the index row limit (54000), and Prisma's
 * codes and kinds for the same.
 */
const REFUSED_DATA_CODES = new Set([
  '22001',
  '22003',
  '22007',
  '22008',
  '22021',
  '22P02',
  '22P05',
  '54000',
  'P2000',
  'P2007',
  'P2020',
]);
const REFUSED_DATA_KINDS = new Set(['LengthMismatch', 'ValueOutOfRange', 'InvalidInputValue']);

/** How far down the chain of causes to look, and how many errors at most: never a cycle. */
const MAX_DEPTH = 6;
const MAX_VISITED = 32;

type TErrorLike = {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: unknown };
};

const isObject = (value: unknown): value is TErrorLike =>
  typeof value === 'object' && value !== null;

/** The error and whatever it wraps, breadth first: `cause`, Prisma's driver error, `errors`. */
const chainOf = (error: unknown): TErrorLike[] => {
  const seen = new Set<unknown>();
  const found: TErrorLike[] = [];
  let level: unknown[] = [error];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth += 1) {
    const next: unknown[] = [];
    for (const node of level) {
      if (!isObject(node) || seen.has(node) || found.length >= MAX_VISITED) {
        continue;
      }
      seen.add(node);
      found.push(node);
      next.push(node.cause);
      if (isObject(node.meta)) {
        next.push(node.meta.driverAdapterError);
      }
      if (Array.isArray(node.errors)) {
        next.push(...node.errors.slice(0, MAX_VISITED));
      }
    }
    level = next;
  }
  return found;
};

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

const faultOf = (node: TErrorLike): TDatabaseFault | undefined => {
  for (const code of [text(node.code), text(node.originalCode)]) {
    if (code !== undefined && Object.hasOwn(FAULT_BY_CODE, code)) {
      return FAULT_BY_CODE[code];
    }
  }
  const kind = text(node.kind);
  if (kind !== undefined && Object.hasOwn(FAULT_BY_KIND, kind)) {
    return FAULT_BY_KIND[kind];
  }
  const message = text(node.message);
  if (node instanceof Error && message !== undefined && Object.hasOwn(FAULT_BY_MESSAGE, message)) {
    return FAULT_BY_MESSAGE[message];
  }
  return undefined;
};

const isRefusedData = (node: TErrorLike): boolean =>
  [text(node.code), text(node.originalCode)].some(
    (code) => code !== undefined && REFUSED_DATA_CODES.has(code),
  ) || REFUSED_DATA_KINDS.has(text(node.kind) ?? '');

/**
 * What a thrown error says about the database: unavailable (and why), data it refused, or
 * nothing known (undefined). Looks through wrapped causes, at most MAX_DEPTH levels deep.
 */
export const classifyDatabaseError = (error: unknown): TDatabaseErrorClass => {
  const chain = chainOf(error);
  for (const node of chain) {
    const fault = faultOf(node);
    if (fault) {
      return { kind: 'unavailable', fault };
    }
  }
  return chain.some(isRefusedData) ? { kind: 'refused_data' } : undefined;
};

const FAULT_WORDS: Record<TDatabaseFault, string> = {
  unreachable: 'the database cannot be reached',
  connection_lost: 'the connection to the database was lost',
  starting_or_stopping: 'the database is starting up or shutting down',
  timeout: 'the database did not answer in time',
  busy: 'no database connection is free',
  closed: 'the API is closing its database connections',
};

/** The fault in our own words (no library code, no address): for `/readyz` and logs. */
export const describeDatabaseFault = (fault: TDatabaseFault): string => FAULT_WORDS[fault];

/** A `503 service_unavailable` with `Retry-After`, for any reason the service cannot serve now. */
export const serviceUnavailable = (message: string): AppError =>
  new AppError('service_unavailable', message, undefined, {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });

/**
 * The client's answer to a database error, or null when the error is not one we recognise (the
 * exception filter then answers `500`).
 */
export const databaseErrorResponse = (error: unknown): AppError | null => {
  const found = classifyDatabaseError(error);
  if (found?.kind === 'unavailable') {
    return serviceUnavailable(
      'The service is temporarily unavailable; retry after the number of seconds in Retry-After.',
    );
  }
  if (found?.kind === 'refused_data') {
    return new AppError(
      'invalid_request',
      'A value in the request cannot be stored: check the text for NUL or other control characters and the lengths and ranges of the fields.',
    );
  }
  return null;
};
