import pino, { type Logger } from 'pino';

export const LOGGER = Symbol('LOGGER');

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
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'request.headers.authorization',
          '*.headers.authorization',
          'authorization',
          'apiKey.key',
          'key',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
