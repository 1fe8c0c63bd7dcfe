import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TTestApi, useTestApi } from '../test/api-harness';

/**
 * Slow clients over raw sockets (one byte at a time, as the attack does) against the real API
 * with small configured timeouts: each is answered 408 with our error body and its connection
 * closed, an idle keep-alive connection is closed, connections past MAX_CONNECTIONS are refused,
 * and a client that gives up in the middle of a body is one info line in the log, not an error.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type TRawConnection = {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves when the server (or the client) has closed the connection. */
  closed: Promise<void>;
};

const opened: Socket[] = [];
afterEach(() => {
  for (const socket of opened.splice(0)) {
    socket.destroy();
  }
});

const open = async (baseUrl: string): Promise<TRawConnection> => {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect({ host: hostname, port: Number(port) });
  opened.push(socket);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed };
};

/** Writes `text` one byte every `everyMs` until the connection closes or the text ends. */
const trickle = async (connection: TRawConnection, text: string, everyMs: number) => {
  for (const byte of text) {
    if (connection.socket.destroyed || connection.socket.writableEnded) {
      return;
    }
    connection.socket.write(byte);
    await sleep(everyMs);
  }
};

const parseResponse = (raw: string) => {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
};

const expectRequestTimeout = (raw: string) => {
  const response = parseResponse(raw);
  expect(response.status).toBe(408);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers.connection).toBe('close');
  expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.parse(response.body)).toEqual({
    code: 'request_timeout',
    status: 408,
    message: expect.stringContaining('not received in time'),
  });
};

/** Lines at warn level or above, and lines with a stack, of one request or overall. */
const troubleLines = (api: TTestApi) =>
  api.logs.filter(
    (line) => (line.level as number) >= 40 || JSON.stringify(line).includes('"stack"'),
  );

describe('with small timeouts', () => {
  const api = useTestApi({
    env: {
      REQUEST_TIMEOUT_SECONDS: '2',
      HEADERS_TIMEOUT_SECONDS: '1',
      KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      CONNECTION_TIMEOUT_SECONDS: '5',
    },
  });
  let key: string;
  beforeAll(async () => {
    key = await api.createKey();
  });

  it('a body sent one byte at a time gets 408 request_timeout and its connection closed', async () => {
    const body = JSON.stringify({ name: 'Slowpoke', categoryId: 1 });
    const connection = await open(api.baseUrl);
    connection.socket.write(
      [
        'POST /v1/pets HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        'X-Request-Id: slow-body',
        '',
        '',
      ].join('\r\n'),
    );
    // The whole body would take 40 × 250 ms = 10 s; the request timeout is 2 s.
    void trickle(connection, body, 250);
    await connection.closed;
    expectRequestTimeout(connection.received());
    expect(await api.prisma.pet.count({ where: { name: 'Slowpoke' } })).toBe(0);

    // One info line says what happened; nothing at warn or error, no stack.
    await sleep(50);
    const lines = api.logs.filter((line) => line.reqId === 'slow-body');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request body not received in time: connection closed (408)',
        reason: 'request_timeout',
        method: 'POST',
        url: '/v1/pets',
      }),
    ]);
    expect(troubleLines(api)).toEqual([]);
  });

  it('headers sent one byte at a time get 408 request_timeout', async () => {
    const connection = await open(api.baseUrl);
    const head = `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nX-Padding: ${'x'.repeat(60)}\r\n\r\n`;
    void trickle(connection, head, 100);
    await connection.closed;
    expectRequestTimeout(connection.received());
    expect(troubleLines(api)).toEqual([]);
  });

  it('a connection that sends nothing is closed after the headers timeout', async () => {
    const connection = await open(api.baseUrl);
    const openedAt = Date.now();
    await connection.closed;
    // Bounded, not timed: the 1 s timeout is checked every 500 ms; 10 s would mean never.
    expect(Date.now() - openedAt).toBeLessThan(10_000);
  });

  it('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_SECONDS', async () => {
    const connection = await open(api.baseUrl);
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    while (!connection.received().includes('{"status":"ok"}')) {
      await sleep(10);
    }
    const response = parseResponse(connection.received());
    expect(response.status).toBe(200);
    expect(response.headers['keep-alive']).toBe('timeout=1');
    const answeredAt = Date.now();
    await connection.closed;
    expect(Date.now() - answeredAt).toBeLessThan(10_000);
  });

  it('a request sent in time on the same settings is served normally', async () => {
    const response = await api.fetch('/v1/pets?limit=1', { key });
    expect(response.status).toBe(200);
  });
});

describe('a client that gives up in the middle of a body', () => {
  const api = useTestApi();

  it('is one info line, not an error, and never "database unavailable"', async () => {
    const key = await api.createKey();
    const connection = await open(api.baseUrl);
    connection.socket.write(
      [
        'POST /v1/pets HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/json',
        'Content-Length: 1000',
        'X-Request-Id: aborted-upload',
        '',
        '{"name":"Half',
      ].join('\r\n'),
    );
    await sleep(200);
    connection.socket.destroy();

    let lines: Record<string, unknown>[] = [];
    for (let attempt = 0; attempt < 100 && lines.length === 0; attempt += 1) {
      await sleep(10);
      lines = api.logs.filter((line) => line.reqId === 'aborted-upload');
    }
    await sleep(100);
    lines = api.logs.filter((line) => line.reqId === 'aborted-upload');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request body aborted: the client closed the connection',
        reason: 'client_closed',
        receivedBytes: 13,
        declaredBytes: 1000,
      }),
    ]);
    expect(api.rawLogs()).not.toContain('"stack"');
    expect(api.rawLogs()).not.toMatch(/unavailable/i);
    expect(troubleLines(api)).toEqual([]);

    // The API is fine afterwards.
    expect((await api.fetch('/v1/pets?limit=1', { key })).status).toBe(200);
  });
});

describe('MAX_CONNECTIONS', () => {
  const api = useTestApi({ env: { MAX_CONNECTIONS: '3' } });

  it('closes connections past the bound as they arrive, and serves again once some end', async () => {
    const held = await Promise.all([open(api.baseUrl), open(api.baseUrl), open(api.baseUrl)]);
    // The server accepts the fourth at the TCP level, then closes it at once, unanswered.
    const extra = await open(api.baseUrl);
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await extra.closed;
    expect(extra.received()).toBe('');
    expect(
      api.logs.filter(
        (line) =>
          line.msg === 'connection limit reached: new connections are closed until some end',
      ),
    ).toHaveLength(1);

    // The held connections still work.
    held[0]?.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    await held[0]?.closed;
    expect(parseResponse(held[0]?.received() ?? '').status).toBe(200);
    for (const connection of held) {
      connection.socket.destroy();
      await connection.closed;
    }
    await sleep(50);
    expect((await fetch(`${api.baseUrl}/healthz`)).status).toBe(200);
  });
});
