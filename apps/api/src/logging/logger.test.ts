import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

const SECRET = 'pets_live_0123456789abcdefghijABCDEFGHIJKL';

const logOnce = (value: object): string => {
  const chunks: string[] = [];
  const logger = createLogger(
    'trace',
    new Writable({
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        callback();
      },
    }),
  );
  logger.info(value, 'probe');
  return chunks.join('');
};

describe('the logger redacts credentials wherever code might log them', () => {
  it.each([
    ['a bare header', { authorization: `Bearer ${SECRET}` }],
    ['a bare header, capitalised', { Authorization: `Bearer ${SECRET}` }],
    ['headers', { headers: { authorization: `Bearer ${SECRET}` } }],
    ['headers, capitalised', { headers: { Authorization: `Bearer ${SECRET}` } }],
    ['a request', { req: { headers: { authorization: `Bearer ${SECRET}` } } }],
    ['a request, capitalised', { request: { headers: { Authorization: `Bearer ${SECRET}` } } }],
    ['an error with its request', { err: { config: { headers: { authorization: SECRET } } } }],
    ['an error with its response', { err: { response: { headers: { authorization: SECRET } } } }],
    ['a plain key field', { key: SECRET }],
    ['a key record', { apiKey: { key: SECRET } }],
  ])('%s', (_label, value) => {
    const line = logOnce(value);
    expect(line).not.toContain(SECRET);
    expect(line).toContain('[redacted]');
  });
});
