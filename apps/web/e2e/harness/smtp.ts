import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  MAIL_CREDENTIAL_HEADER,
  MAIL_READER_HEADER,
  MAIL_READERS,
  mailboxFileName,
} from '@pets/contract/rules';
import type { TDevMailboxEntry } from '@pets/contract/schemas';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type TSmtpInbox = {
  /** smtp://127.0.0.1:<port>: the API's SMTP_URL in the tests. */
  url: string;
  close: () => Promise<void>;
};

/**
 * A real SMTP server (smtp-server) for the browser tests: the API sends its email to it over SMTP,
 * as to any mail server, and each message it accepts is written to `folder` in the dev mailbox's
 * format (the contract's dev-mailbox.ts). The tests read the folder (e2e/mail-helpers.ts), and
 * the site shows it at /staff/mail (its MAIL_DIR): what arrived, not what the API meant to send.
 */
export const startSmtpInbox = async (folder: string): Promise<TSmtpInbox> => {
  mkdirSync(folder, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          count += 1;
          const id = String(count);
          // Whom the API says the message is for, as the dev mailbox keeps it.
          const reader = MAIL_READERS.find(
            (each) => each === mail.headers.get(MAIL_READER_HEADER.toLowerCase()),
          );
          const entry: TDevMailboxEntry = {
            id,
            from: mail.from?.text ?? '',
            to: (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [])
              .map((each) => each.text)
              .join(', '),
            subject: mail.subject ?? '',
            date: new Date().toISOString(),
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            ...(reader ? { reader } : {}),
            // Whether it carries a credential, as the API says: /staff/mail shows it to its
            // recipient only.
            credential: mail.headers.get(MAIL_CREDENTIAL_HEADER.toLowerCase()) === 'yes',
          };
          const path = join(folder, `${mailboxFileName(id)}.json`);
          writeFileSync(`${path}.tmp`, JSON.stringify(entry));
          renameSync(`${path}.tmp`, path);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = (
    server as unknown as { server: { address: () => AddressInfo } }
  ).server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
