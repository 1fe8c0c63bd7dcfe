import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Lingering close (nginx's name for it), for a connection whose request body was left partly
 * unread (a body over the limit: its 413, 401 or 429 is answered before the body has arrived).
 * Node ends such a connection right after the answer: the unread bytes then make the kernel reset
 * it, and a client still sending (Node's fetch, most integrators) sees `EPIPE` instead of the
 * answer (5-60% of 5 MB and 12 MB uploads in a probe). Instead, the answer is sent
 * and the sending side closed (FIN), while the rest of the body is read and thrown away, for at
 * most LINGER_MS and LINGER_MAX_BYTES, before the connection is closed.
 */
export const LINGER_MS = 5_000;
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;

const LINGERING = Symbol('lingering');

type TLingeringSocket = Socket & { [LINGERING]?: true };

/** Arms lingering close on the request's connection; call before the answer is sent. */
export const lingerAfterAnswer = (request: IncomingMessage): void => {
  const socket = request.socket as TLingeringSocket | null;
  if (!socket || socket.destroyed || socket[LINGERING]) {
    return;
  }
  socket[LINGERING] = true;
  // Node's server calls destroySoon() once a `Connection: close` answer is written: end our side
  // (FIN after the answer) but keep reading until the client is done, or the bounds are reached.
  socket.destroySoon = () => {
    socket.end();
    let discarded = 0;
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    socket.on('error', close);
    socket.once('close', () => clearTimeout(timer));
    request.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_MAX_BYTES) {
        close();
      }
    });
    request.once('end', close);
    socket.once('end', close);
    request.once('error', close);
    request.resume();
    // Bytes the HTTP parser no longer reads (it stops after a `Connection: close` exchange).
    socket.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_MAX_BYTES) {
        close();
      }
    });
    socket.resume();
  };
};

/**
 * `Expect: 100-continue` honoured: a body that no route would read (its declared length
 * over `largestBodyBytes`) gets no `100 Continue`, so the client does not send it and reads the
 * final answer (its 413, or the 401 or 429 that comes first) instead. Any other body gets its
 * `100 Continue` at once, as Node gives it by default.
 */
export const honourExpectContinue = (server: Server, largestBodyBytes: number): void => {
  server.on('checkContinue', (request, response) => {
    const declared = Number(request.headers['content-length']);
    if (!(declared > largestBodyBytes)) {
      response.writeContinue();
    }
    server.emit('request', request, response);
  });
};
