import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { TErrorCode } from '@pets/contract';
import { AppError } from '../core/app-error';

/** Node's limit on a request's line and headers together (16 KiB unless --max-http-header-size). */
const HEADERS_LIMIT_TEXT = `${Math.round(maxHeaderSize / 1024)} KiB`;

/** A request line whose only fault can be its method: `TOKEN SP target SP HTTP/x.y`. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) [^\s]+ HTTP\/\d\.\d\r?$/;

const MALFORMED = 'The request is not valid HTTP/1.1';

/**
 * What a request Node's parser refused gets, by llhttp's error code: the request never reached
 * Fastify, so it has no route, no key check and no rate limit; only a status and our words.
 */
const PARSE_ERRORS: Record<string, [TErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    'headers_too_large',
    `The request line and headers are larger than the limit of ${HEADERS_LIMIT_TEXT}.`,
  ],
  HPE_INVALID_TRANSFER_ENCODING: [
    'invalid_request',
    `${MALFORMED}: Transfer-Encoding must end with chunked.`,
  ],
  HPE_UNEXPECTED_CONTENT_LENGTH: [
    'invalid_request',
    `${MALFORMED}: send Content-Length or Transfer-Encoding, not both.`,
  ],
  HPE_INVALID_CONTENT_LENGTH: [
    'invalid_request',
    `${MALFORMED}: Content-Length must be one decimal number, and not sent with Transfer-Encoding.`,
  ],
  HPE_INVALID_CHUNK_SIZE: [
    'invalid_request',
    `${MALFORMED}: a chunk size of the body is malformed.`,
  ],
  HPE_INVALID_URL: ['invalid_request', `${MALFORMED}: the request target is not a valid path.`],
  HPE_INVALID_VERSION: ['invalid_request', `${MALFORMED}: the HTTP version is not 1.0 or 1.1.`],
};

const GENERIC: [TErrorCode, string] = [
  'invalid_request',
  `${MALFORMED}: the request line or a header line is malformed, or contains a forbidden character (NUL, CR or LF).`,
];

/**
 * The method llhttp refused, when the request line is otherwise well formed: lower-case (`get`;
 * methods are case-sensitive) or unknown (`FOO`). Such a request is a 501 (RFC 9110, 15.6.2);
 * anything else the parser refused is a 400.
 */
const unknownMethod = (error: { rawPacket?: unknown }): string | undefined => {
  const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined;
  const firstLine = packet?.subarray(0, 2048).toString('latin1').split('\n', 1)[0] ?? '';
  return REQUEST_LINE.exec(firstLine)?.[1];
};

/** The AppError a request refused by Node's HTTP parser is answered with. */
export const parseErrorOf = (error: NodeJS.ErrnoException & { rawPacket?: unknown }): AppError => {
  const code = error.code ?? '';
  if (code === 'HPE_INVALID_METHOD') {
    const method = unknownMethod(error);
    if (method !== undefined) {
      return new AppError(
        'not_implemented',
        `The method ${method} is not implemented; methods are case-sensitive: use GET, HEAD or POST.`,
      );
    }
  }
  const [errorCode, message] = PARSE_ERRORS[code] ?? GENERIC;
  return new AppError(errorCode, message);
};

/** A complete HTTP/1.1 response written on the socket itself, then the connection is closed. */
export const rawErrorResponse = (error: AppError, requestId: string = randomUUID()): string => {
  const body = JSON.stringify(error.toBody());
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
};

/**
 * Fastify's `clientErrorHandler`: a request that Node's parser refused (a malformed header line,
 * NUL/CR/LF in a header, an unknown or lower-case method, headers over the limit, a bad
 * Transfer-Encoding or Content-Length) gets the spec's error body instead of Fastify's own. The
 * request's headers were never read, so the response carries a new request id and no rate-limit
 * headers; the connection is closed, since the rest of what the client sent cannot be trusted.
 * Timeouts are answered by the connection tracking of the server (408), which runs first.
 */
export const clientErrorHandler = (
  error: NodeJS.ErrnoException & { rawPacket?: unknown },
  socket: Socket,
): void => {
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    return;
  }
  // A response already under way (an early answer to a request whose body then broke) cannot
  // get a second one in the middle: the connection just ends, as Node itself does.
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })
    ._httpMessage;
  if (socket.writable && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && !current?.headersSent) {
    socket.end(rawErrorResponse(parseErrorOf(error)));
  }
  socket.destroy();
};

/**
 * `Expect` other than `100-continue`: Node answers a bare 417 with an empty body unless the server
 * handles `checkExpectation`. RFC 9110 (10.1.1) lets a server ignore an expectation it does not
 * know; like nginx we do, so the request is authenticated, limited and served as any other.
 */
export const ignoreUnknownExpectations = (server: Server): void => {
  server.on('checkExpectation', (request, response) => {
    server.emit('request', request, response);
  });
};

/**
 * CONNECT asks for a tunnel, which this server (no proxy) never opens: Node would close the
 * connection without a word unless the server handles `connect`. It gets a 501 in the error format.
 */
export const refuseConnect = (server: Server): void => {
  server.on('connect', (_request, socket: Socket) => {
    const error = new AppError(
      'not_implemented',
      'The method CONNECT is not implemented: this API opens no tunnels.',
    );
    socket.end(rawErrorResponse(error));
  });
};
