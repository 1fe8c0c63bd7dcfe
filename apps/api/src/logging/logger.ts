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
