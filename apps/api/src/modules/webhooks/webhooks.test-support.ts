import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { json, type TTestApi } from '../../test/api-harness';

/** A request the receiver got: its headers and its body as sent. */
export type TReceived = { headers: Record<string, string>; body: string };

/**
 * A webhook receiver on 127.0.0.1: records every request, answers `status()` (200 unless told).
 * A real HTTP server: the API's worker reaches it over the loopback, as it would a partner.
 */
export type TReceiver = {
  url: string;
  received: TReceived[];
  /**
   * What it answers next; `closed`: the connection is dropped without an answer; `hold`: the
   * request is kept waiting, unanswered and not recorded, until the receiver closes.
   */
  answer: (status: number | 'closed' | 'hold') => void;
  /** How many requests are being held. */
  held: () => number;
  /** The most requests it had in hand at once (from their arrival to the end of the answer). */
  maxInFlight: () => number;
  close: () => Promise<void>;
};

export const startReceiver = async (path = '/hooks'): Promise<TReceiver> => {
  const received: TReceived[] = [];
  let status: number | 'closed' | 'hold' = 200;
  let held = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((request, response) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (status === 'closed') {
        request.socket.destroy();
        return;
      }
      if (status === 'hold') {
        held += 1;
        return;
      }
      if (status >= 200 && status < 300) {
        received.push({
          headers: Object.fromEntries(
            Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      }
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status < 300 ? 'ok' : `receiver says ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer: (next) => {
      status = next;
    },
    held: () => held,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Waits until `check` passes (it throws until then), at most `timeoutMs`. */
export const eventually = async <T>(
  check: () => Promise<T> | T,
  timeoutMs = 20_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
};

export type TCreatedEndpoint = { id: string; secret: string; status: string; url: string };

export const createEndpoint = async (
  api: TTestApi,
  key: string,
  body: object,
): Promise<TCreatedEndpoint> => {
  const response = await api.fetch('/v1/webhook-endpoints', json(body, { key }));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TCreatedEndpoint;
};
