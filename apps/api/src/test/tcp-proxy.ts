import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy on a free loopback port in front of a server (the test's PostgreSQL), which the test
 * can cut: every connection through it is dropped at once and new ones are closed as they come,
 * as when the database's host goes away, until restore(). The server behind it (the machine's
 * shared PostgreSQL) is never touched.
 */
export type TTcpProxy = {
  /** `url` with its host and port replaced by the proxy's. */
  through: (url: string) => string;
  /** Drops every connection and refuses the next ones. */
  cut: () => void;
  /** Lets connections through again. */
  restore: () => void;
  close: () => Promise<void>;
};

export const startTcpProxy = async (target: { host: string; port: number }): Promise<TTcpProxy> => {
  const sockets = new Set<Socket>();
  let isCut = false;
  const server = createServer((client) => {
    if (isCut) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', end);
      socket.on('close', end);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    through: (url) => {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    cut: () => {
      isCut = true;
      for (const socket of sockets) {
        socket.destroy();
      }
      sockets.clear();
    },
    restore: () => {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
};
