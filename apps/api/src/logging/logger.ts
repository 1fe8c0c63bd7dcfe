import pino, { type Logger } from 'pino';

export const LOGGER = Symbol('LOGGER');

/** Where a header object may sit in what code logs: bare, in a request, in an error's request. */
const HEADER_HOLDERS = ['', 'headers.', '*.headers.', '*.*.headers.'];

/**
 * Every place an Authorization header (either spelling) or a plaintext key could appear in a log
 * line. pino's paths have no deep wildcard, so the shapes are listed: a header map, a request
 * (`req`, `request`), an error carrying its request or response (`err.config`, `err.response`).
 */
const REDACTED_PATHS = [
  ...HEADER_HOLDERS.flatMap((holder) => [`${holder}authorization`, `${holder}Authorization`]),
  'key',
  'apiKey.key',
];

/**
 * Structured JSON logs. The Authorization header is redacted wherever it could appear; API keys
 * are identified in logs only by their display start.
 */
export const createLogger = (level: string, destination?: pino.DestinationStream): Logger =>
  pino(
    {
      level,
      base: { service: 'pets-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: REDACTED_PATHS,
        censor: '[redacted]',
      },
    },
    destination,
  );

/**
 * The access log's destination in production: standard output like every other line, but through
 * a buffer written asynchronously (pino's sonic-boom), instead of one synchronous write per
 * request. Lines leave in writes of whole lines, once 2 KB are waiting or every 500 ms, each write
 * at most 4 KB, so that it stays atomic on a pipe beside the other lines' synchronous writes.
 * main.ts flushes it before it logs `stopped`; pino flushes it synchronously on any other exit.
 */
export const createAccessLogDestination = (): pino.DestinationStream & {
  flush(callback?: (error?: Error) => void): void;
} =>
  pino.destination({
    dest: 1,
    sync: false,
    minLength: 2048,
    maxWrite: 4096,
    periodicFlush: 500,
  });

/**
 * Resolves once everything written to a destination so far has been written out, or after
 * `timeoutMs` at most: shutdown never waits on the logs for long. The callback's error is not a
 * failure here: sonic-boom's flush ends with an fsync, which a pipe (a container's standard
 * output) refuses with EINVAL after the lines are written.
 */
export const flushed = (
  destination: { flush(callback?: (error?: Error) => void): void },
  timeoutMs = 1_000,
): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    timer.unref();
    destination.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
