import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test server accepted (answered 250 to), parsed. */
export type TReceivedMail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Every header field as sent (unfolded), by its lower-case name; the last of a repeated one. */
  headers: Record<string, string>;
};

export type TTestSmtpServer = {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Every accepted message, in arrival order. */
  received: TReceivedMail[];
  /** Messages whose data arrived but were never accepted (the client went away first). */
  abandoned: () => number;
  /** Refuses the next `count` messages with a temporary failure (451). */
  refuseNext: (count: number) => void;
  /**
   * Holds the next message's answer until release(). `clientGone` resolves once the server has seen
   * the held message's client disconnect: a test that kills the client waits for it before
   * releasing, so the message counts as abandoned, not as received by a client already gone.
   */
  holdNext: () => { arrived: Promise<void>; release: () => void; clientGone: Promise<void> };
  /** Resolves once `count` messages have been accepted (or rejects after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<TReceivedMail[]>;
  close: () => Promise<void>;
};

/**
 * A real SMTP server (the smtp-server package) on a free loopback port, no TLS, no login: the
 * API's SMTP transport talks to it as to any mail server. A message counts as received only once
 * the server has answered 250, as a mail server commits it.
 */
export const startSmtpServer = async (): Promise<TTestSmtpServer> => {
  const received: TReceivedMail[] = [];
  let abandoned = 0;
  let refusals = 0;
  let hold: { arrived: () => void; released: Promise<void>; gone: () => void } | undefined;
  /** Sessions whose client has disconnected, and what waits for one to. */
  const closed = new Set<string>();
  const onGone = new Map<string, () => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closed.add(session.id);
      onGone.get(session.id)?.();
      onGone.delete(session.id);
    },
    onData(stream, session, callback) {
      const parsed = simpleParser(stream);
      void (async () => {
        const mail = await parsed;
        if (refusals > 0) {
          refusals -= 1;
          const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
          callback(error);
          return;
        }
        const held = hold;
        hold = undefined;
        if (held) {
          if (closed.has(session.id)) {
            held.gone();
          } else {
            onGone.set(session.id, held.gone);
          }
          held.arrived();
          await held.released;
        }
        const address = (value: typeof mail.to) =>
          (Array.isArray(value) ? value : value ? [value] : []).map((each) => each.text).join(', ');
        if (!isConnected(session.id)) {
          // The client went away before our answer: it never learnt the message was taken.
          abandoned += 1;
          return;
        }
        received.push({
          from: mail.from?.text ?? '',
          to: address(mail.to),
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html: typeof mail.html === 'string' ? mail.html : '',
          messageId: mail.messageId ?? '',
          headers: Object.fromEntries(
            mail.headerLines.map(({ key, line }) => [
              key,
              line
                .slice(line.indexOf(':') + 1)
                .replace(/\r?\n(?=[ \t])/g, '')
                .trim(),
            ]),
          ),
        });
        callback();
      })();
    },
  });
  const isConnected = (sessionId: string): boolean => {
    const connections = (
      server as unknown as { connections: Set<{ id: string; _socket?: { destroyed: boolean } }> }
    ).connections;
    const connection = [...connections].find((each) => each.id === sessionId);
    return !closed.has(sessionId) && connection?._socket?.destroyed === false;
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = (
    server as unknown as { server: { address: () => AddressInfo } }
  ).server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    abandoned: () => abandoned,
    refuseNext: (count) => {
      refusals += count;
    },
    holdNext: () => {
      let arrived: () => void = () => undefined;
      let release: () => void = () => undefined;
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let gone: () => void = () => undefined;
      const clientGone = new Promise<void>((resolve) => {
        gone = resolve;
      });
      hold = { arrived, released, gone };
      return { arrived: arrival, release, clientGone };
    },
    waitFor: async (count, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} messages, received ${received.length}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The first message to `to` with `subject` among those received after the first `after`, waited for. */
export const arrivalAt = async (
  smtp: TTestSmtpServer,
  after: number,
  to: string,
  subject: string,
  timeoutMs = 30_000,
): Promise<TReceivedMail> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.received
      .slice(after)
      .find((message) => message.to === to && message.subject === subject);
    if (found) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`no message "${subject}" to ${to}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
