import { timingSafeEqual } from 'node:crypto';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Serves one PGlite instance over the PostgreSQL wire protocol on 127.0.0.1, so every user of the
 * embedded database (the API, the key CLI, migrations, psql) connects with an ordinary driver.
 *
 * Why not `PGLiteSocketServer` from `@electric-sql/pglite-socket`: PGlite is a single backend,
 * one session. The socket package multiplexes client connections onto it one protocol MESSAGE at
 * a time, so a client whose Parse/Bind/Execute/Sync sequence arrives in more than one TCP chunk
 * (any statement over ~64 KiB, such as a bulk insert) can have another client's Parse land between
 * its Parse and its Bind: the unnamed statement is replaced and the Bind runs the other client's
 * SQL with this client's parameters (measured: "bind message supplies 1 parameters, but prepared
 * statement requires 2"; with matching parameter counts it would silently write wrong rows).
 *
 * Here a client owns the backend from the first message of a request up to its Sync (extended
 * protocol) or for its whole simple Query, and keeps owning it for as long as it has a
 * transaction open, so requests and transactions never interleave. The price is the nature of a
 * single session: transactions of different clients run one after another, and session state
 * (SET, named prepared statements, session advisory locks) is shared by all clients.
 *
 * Clients authenticate with a password (cleartext, which only ever crosses the loopback
 * interface): the address alone does not open the database to other local users.
 */

const PROTOCOL_VERSION_3 = 196_608;
const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;
/** Anything larger as a startup packet is not PostgreSQL talking. */
const MAX_STARTUP_LENGTH = 10_000;

const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** FIFO mutex: who may talk to the single PGlite backend. */
class Mutex {
  private locked = false;
  private readonly waiters: (() => void)[] = [];

  acquire = (): Promise<void> => {
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  };

  release = (): void => {
    const next = this.waiters.shift();
    if (next) {
      next();
      return;
    }
    this.locked = false;
  };
}

const errorResponse = (code: string, message: string): Buffer => {
  const fields = Buffer.concat([
    Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0`, 'utf8'),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0, 'ascii');
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
};

const AUTHENTICATION_CLEARTEXT_PASSWORD = (() => {
  const message = Buffer.alloc(9);
  message.write('R', 0, 'ascii');
  message.writeInt32BE(8, 1);
  message.writeInt32BE(3, 5);
  return message;
})();

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export type TPgliteServerOptions = {
  db: PGlite;
  password: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port chosen by the system. */
  port?: number;
  /** Connections beyond this are refused with SQLSTATE 53300. */
  maxConnections?: number;
};

export type TPgliteServer = {
  host: string;
  port: number;
  connectionCount: () => number;
  /**
   * Stops accepting connections, gives connected clients up to `graceMs` to finish and
   * disconnect, then closes the rest. Waits until no client is using the backend.
   */
  stop: (graceMs?: number) => Promise<void>;
};

type TPhase = 'startup' | 'password' | 'ready' | 'closed';

export const startPgliteServer = async ({
  db,
  password,
  host = '127.0.0.1',
  port = 0,
  maxConnections = 100,
}: TPgliteServerOptions): Promise<TPgliteServer> => {
  const backend = new Mutex();
  const sockets = new Set<Socket>();

  /** Runs one protocol message on the backend and streams the answer to the client. */
  const execute = (socket: Socket, message: Uint8Array): Promise<void> =>
    db.runExclusive(() =>
      db.execProtocolRawStream(message, {
        onRawData: (data) => {
          if (!socket.destroyed) {
            socket.write(data);
          }
        },
      }),
    );

  const handleConnection = (socket: Socket): void => {
    if (sockets.size >= maxConnections) {
      socket.end(errorResponse('53300', 'too many connections to the embedded database'));
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);

    let phase: TPhase = 'startup';
    let buffer = Buffer.alloc(0);
    let startupMessage: Buffer | null = null;
    let ownsBackend = false;
    /** Messages are handled strictly one after another, in arrival order. */
    let queue: Promise<void> = Promise.resolve();

    const fail = (code: string, message: string): void => {
      phase = 'closed';
      socket.end(errorResponse(code, message));
    };

    const claimBackend = async (): Promise<void> => {
      if (!ownsBackend) {
        await backend.acquire();
        ownsBackend = true;
      }
    };

    const releaseBackendUnlessInTransaction = (): void => {
      if (ownsBackend && !db.isInTransaction()) {
        ownsBackend = false;
        backend.release();
      }
    };

    const handleMessage = async (type: string, message: Buffer): Promise<void> => {
      if (phase === 'closed' || socket.destroyed) {
        return;
      }
      if (phase === 'password') {
        if (type !== 'p') {
          fail('08P01', 'expected a password message');
          return;
        }
        const given = message.subarray(5, message.length - 1).toString('utf8');
        if (!sameSecret(given, password) || startupMessage === null) {
          fail('28P01', 'password authentication failed for the embedded database');
          return;
        }
        phase = 'ready';
        await claimBackend();
        try {
          await execute(socket, startupMessage);
        } finally {
          releaseBackendUnlessInTransaction();
        }
        return;
      }
      if (type === 'X') {
        socket.end();
        return;
      }
      await claimBackend();
      await execute(socket, message);
      // A request ends with Sync (extended protocol) or is a whole simple Query; a transaction
      // keeps the backend until it ends.
      if (type === 'S' || type === 'Q') {
        releaseBackendUnlessInTransaction();
      }
    };

    /** Splits the byte stream into messages and queues them. */
    const parse = (): void => {
      while (phase !== 'closed') {
        if (phase === 'startup') {
          if (buffer.length < 8) {
            return;
          }
          const length = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (length < 8 || length > MAX_STARTUP_LENGTH) {
            fail('08P01', 'invalid startup packet');
            return;
          }
          if (buffer.length < length) {
            return;
          }
          const packet = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N');
            continue;
          }
          if (code === CANCEL_REQUEST) {
            phase = 'closed';
            socket.end();
            return;
          }
          if (code !== PROTOCOL_VERSION_3) {
            fail('0A000', 'unsupported frontend protocol');
            return;
          }
          startupMessage = Buffer.from(packet);
          phase = 'password';
          socket.write(AUTHENTICATION_CLEARTEXT_PASSWORD);
          continue;
        }
        if (buffer.length < 5) {
          return;
        }
        const length = buffer.readInt32BE(1);
        if (length < 4) {
          fail('08P01', 'invalid message length');
          return;
        }
        if (buffer.length < length + 1) {
          return;
        }
        const message = Buffer.from(buffer.subarray(0, length + 1));
        buffer = buffer.subarray(length + 1);
        const type = String.fromCharCode(message[0] ?? 0);
        queue = queue
          .then(() => handleMessage(type, message))
          .catch(() => {
            socket.destroy();
          });
      }
    };

    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      parse();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      phase = 'closed';
      queue = queue
        .then(async () => {
          if (!ownsBackend) {
            return;
          }
          // The client left in the middle of a request or a transaction: end the request and
          // roll the transaction back so the next client starts from a clean session.
          try {
            await db.runExclusive(() => db.execProtocolRaw(SYNC));
            if (db.isInTransaction()) {
              // exec() takes PGlite's own query lock: not inside runExclusive.
              await db.exec('ROLLBACK');
            }
          } finally {
            ownsBackend = false;
            backend.release();
          }
        })
        .catch(() => undefined)
        .finally(() => sockets.delete(socket));
    });
  };

  const server: Server = createServer(handleConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;

  const stop = async (graceMs = 5_000): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const deadline = Date.now() + graceMs;
    while (sockets.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const socket of sockets) {
      socket.destroy();
    }
    await closed;
    // Whoever still uses the backend (a socket that just closed rolls back first) finishes.
    await backend.acquire();
    backend.release();
  };

  return { host, port: address.port, connectionCount: () => sockets.size, stop };
};
