import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { ERROR_STATUS } from '@pets/contract';
import type { Logger } from 'pino';
import type { TConfig } from '../config';

/**
 * The HTTP server's side of slow clients and shutdown: timeouts and the connection bound
 * (docs/operations.md, "Slow clients and connections"), the 408 a client gets when it sends too slowly, and the drain that
 * ends every connection on SIGTERM without resetting a request the server has begun to read.
 */

/** Fastify's server options for the slow-client settings of the configuration. */
export const serverTimeoutOptions = (config: TConfig) => {
  const headersTimeout = config.HEADERS_TIMEOUT_SECONDS * 1000;
  return {
    // The whole request, headers and body, must arrive within this (Node's requestTimeout).
    requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
    // No traffic either way for this long closes the socket: a client that stops reading.
    connectionTimeout: config.CONNECTION_TIMEOUT_SECONDS * 1000,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    http: {
      headersTimeout,
      requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
      // Node checks the two timeouts above on this period (30 s by default, which would let a
      // 10 s headers timeout run to 40 s). Once a second walks the list of connections that are
      // receiving a request: cheap.
      connectionsCheckingInterval: Math.min(1_000, headersTimeout / 2),
    },
    // Shutdown closes idle connections itself, once they have been quiet (ConnectionDrain).
    forceCloseConnections: false,
  } as const;
};

type TConnectionState = {
  /** Requests read on this connection whose responses have not ended. */
  pending: number;
  /** socket.bytesRead when last looked at, and since when it has not moved while idle. */
  bytesRead: number;
  quietSince: number;
  /** The response being written, if its headers may already be out. */
  response: ServerResponse | null;
  /** The server gave up on this connection's request (408). */
  timedOut: boolean;
};

const kState = Symbol('pets.connection');
type TTrackedSocket = Socket & { [kState]?: TConnectionState };

const stateOf = (socket: Socket): TConnectionState | undefined =>
  (socket as TTrackedSocket)[kState];

/** Whether the request's connection was closed by the server's request or headers timeout. */
export const timedOut = (request: IncomingMessage): boolean =>
  stateOf(request.socket)?.timedOut === true;

const REQUEST_TIMEOUT_BODY = JSON.stringify({
  code: 'request_timeout',
  message:
    'The request was not received in time: its headers or its body came too slowly. Send it again.',
  status: ERROR_STATUS.request_timeout,
});

/** The 408 written on the connection itself: the request never reached the application. */
const requestTimeoutResponse = (): string =>
  [
    'HTTP/1.1 408 Request Timeout',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(REQUEST_TIMEOUT_BODY)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
    '',
    REQUEST_TIMEOUT_BODY,
  ].join('\r\n');

const drains = new WeakMap<Server, ConnectionDrain>();

/** The drain of the server createApp built (app.ts), for main.ts's shutdown. */
export const drainOf = (server: Server): ConnectionDrain => {
  const drain = drains.get(server);
  if (!drain) {
    throw new Error('drainOf: this server was not built by createApp');
  }
  return drain;
};

/** How long a connection with nothing in flight must stay quiet before shutdown closes it. */
export const IDLE_GRACE_MS = 1_000;
/** How often shutdown looks for quiet connections. */
const SWEEP_MS = 100;
/** At most one "connection limit reached" warning per this period. */
const DROP_WARNING_MS = 10_000;

/**
 * Knows every connection of the server and whether a request is in flight on it, so that
 * shutdown can close a keep-alive connection only when it is truly idle: no response pending and
 * no byte received for IDLE_GRACE_MS. Node's own server.close() (since Node 19) closes idle
 * connections at once, and one that received a request's first bytes a moment earlier, not yet
 * parsed, counts as idle: that request is reset. Connections that do carry a request are answered
 * with `Connection: close` (app.ts, onSend), which ends them without a race.
 */
export class ConnectionDrain {
  /** Set when shutdown begins: every response from then on ends its connection. */
  draining = false;
  private readonly sockets = new Set<Socket>();
  private lastDropWarning = 0;

  constructor(
    private readonly server: Server,
    config: TConfig,
    private readonly logger: Logger,
  ) {
    server.maxConnections = config.MAX_CONNECTIONS;
    server.on('drop', () => {
      const now = Date.now();
      if (now - this.lastDropWarning >= DROP_WARNING_MS) {
        this.lastDropWarning = now;
        this.logger.warn(
          { maxConnections: config.MAX_CONNECTIONS },
          'connection limit reached: new connections are closed until some end',
        );
      }
    });
    server.on('connection', (socket: Socket) => {
      (socket as TTrackedSocket)[kState] = {
        pending: 0,
        bytesRead: 0,
        quietSince: Date.now(),
        response: null,
        timedOut: false,
      };
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const state = stateOf(request.socket);
      if (!state) {
        return;
      }
      state.pending += 1;
      state.response = response;
      response.once('close', () => {
        state.pending -= 1;
        if (state.response === response) {
          state.response = null;
        }
        state.quietSince = Date.now();
        state.bytesRead = request.socket.bytesRead;
      });
    });
    // Before Fastify's own handler, which answers timeouts with a body of its own.
    server.prependListener('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT' || socket.destroyed) {
        return;
      }
      const state = stateOf(socket);
      if (state) {
        state.timedOut = true;
      }
      // A response already under way (an early answer to a body still arriving) cannot get
      // another one in the middle: the connection just ends.
      // Written then destroyed at once, as Node itself does: the few bytes go out immediately,
      // and a client that reads nothing cannot hold the connection.
      if (socket.writable && !state?.response?.headersSent) {
        socket.end(requestTimeoutResponse());
      }
      socket.destroy();
    });
    drains.set(server, this);
  }

  /**
   * Stops accepting connections and resolves once every connection has ended: those carrying a
   * request end after its response (`Connection: close`), idle ones once quiet for IDLE_GRACE_MS.
   * After `timeoutMs`, `onTimeout` runs and every connection is closed at once.
   */
  drain({
    timeoutMs,
    onTimeout,
    idleGraceMs = IDLE_GRACE_MS,
  }: {
    timeoutMs: number;
    onTimeout: () => void;
    idleGraceMs?: number;
  }): Promise<void> {
    this.draining = true;
    const startedAt = Date.now();
    return new Promise((resolve) => {
      const sweep = setInterval(() => this.closeQuiet(startedAt, idleGraceMs), SWEEP_MS);
      const deadline = setTimeout(() => {
        onTimeout();
        for (const socket of this.sockets) {
          socket.destroy();
        }
      }, timeoutMs);
      // net.Server's close, not http.Server's: the latter first closes every idle connection at
      // once (the reset this drain exists to avoid). The callback runs once all have ended.
      NetServer.prototype.close.call(this.server, () => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve();
      });
    });
  }

  private closeQuiet(startedAt: number, idleGraceMs: number): void {
    const now = Date.now();
    for (const socket of this.sockets) {
      const state = stateOf(socket);
      if (!state) {
        continue;
      }
      if (state.pending > 0 || socket.bytesRead !== state.bytesRead) {
        state.bytesRead = socket.bytesRead;
        state.quietSince = now;
        continue;
      }
      if (now - Math.max(state.quietSince, startedAt) >= idleGraceMs) {
        socket.destroy();
      }
    }
  }
}

/** The soft limit on open files from /proc/self/limits' text, or undefined when unlimited or absent. */
export const openFilesLimit = (limits: string): number | undefined => {
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
};

/** Descriptors kept for everything but client connections: the pool, Redis, logs, modules. */
const RESERVED_DESCRIPTORS = 100;

/**
 * A warning when MAX_CONNECTIONS cannot protect the process: past the open-files limit, a flood
 * of connections exhausts descriptors (accept, the database pool, Redis fail) before the bound
 * is reached. Linux only; elsewhere, nothing is known and nothing is said.
 */
export const connectionBoundWarning = (
  maxConnections: number,
  limits: string | undefined,
): { maxConnections: number; openFilesLimit: number } | undefined => {
  const limit = limits === undefined ? undefined : openFilesLimit(limits);
  return limit !== undefined && maxConnections + RESERVED_DESCRIPTORS > limit
    ? { maxConnections, openFilesLimit: limit }
    : undefined;
};
