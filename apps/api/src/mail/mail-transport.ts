import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mailboxFileName } from '@pets/contract/rules';
import { type TDevMailboxEntry, ZDevMailboxEntry } from '@pets/contract/schemas';
import { createTransport } from 'nodemailer';
import { buildMessage, type TMimeMail } from './mime';

/**
 * Where a rendered message goes: the mail server of SMTP_URL, or, without one (the `pnpm start`
 * default), the dev mailbox (the contract's dev-mailbox.ts: an `.eml`, an `.html` and a `.json`
 * per message, read by `pnpm mail` and the site's /staff/mail). A message is named by its outbox
 * id, so writing it twice leaves one message.
 */

export type TOutgoingMail = TMimeMail & {
  /** The outbox id (mail_messages.id). */
  id: string;
};

export type TMailTransport = {
  /** Resolves once the server (or the folder) has the message; rejects with our own words. */
  send: (mail: TOutgoingMail) => Promise<void>;
  close: () => void;
};

/** Fails the attempt in our words: the server's own reply may carry addresses or credentials. */
export class MailSendError extends Error {}

const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export const smtpTransport = (smtpUrl: string): TMailTransport => {
  const transporter = createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    send: async (mail) => {
      try {
        // Built here in one pass (mime.ts); nodemailer only delivers it. With `raw` the envelope
        // is not read from the message, so it is given.
        await transporter.sendMail({
          envelope: { from: mail.from, to: mail.to },
          raw: buildMessage(mail),
        });
      } catch (error) {
        const code = (error as { code?: unknown; responseCode?: unknown }) ?? {};
        throw new MailSendError(
          `the mail server did not take the message (${String(code.responseCode ?? code.code ?? 'no answer')})`,
        );
      }
    },
    close: () => transporter.close(),
  };
};

export const mailboxTransport = (folder: string): TMailTransport => {
  // The folder is made when a write finds it missing (first message, or deleted meanwhile), not
  // before every message: a `mkdir` per message was about 4% of an order's CPU in `pnpm bench`.
  const writeTmp = async (path: string, content: string | Buffer) => {
    try {
      await writeFile(path, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw error;
      }
      await mkdir(folder, { recursive: true });
      await writeFile(path, content);
    }
  };
  const write = async (name: string, content: string | Buffer) => {
    const path = join(folder, name);
    await writeTmp(`${path}.tmp`, content);
    await rename(`${path}.tmp`, path);
  };
  return {
    send: async (mail) => {
      // Unix line ends, as in a mail folder on disk: every CR dropped, as nodemailer's
      // `newline: 'unix'` did.
      const eml = buildMessage(mail).replaceAll('\r', '');
      const entry: TDevMailboxEntry = {
        id: mail.id,
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        date: mail.date.toISOString(),
        text: mail.text,
        html: mail.html,
        ...(mail.reader ? { reader: mail.reader } : {}),
        credential: mail.credential === true,
      };
      await write(`${mailboxFileName(mail.id)}.eml`, eml);
      await write(`${mailboxFileName(mail.id)}.html`, mail.html);
      // Last: a listed message always has its .eml.
      await write(`${mailboxFileName(mail.id)}.json`, JSON.stringify(entry));
    },
    close: () => undefined,
  };
};

/** The dev mailbox's messages, newest first; none when the folder does not exist. */
export const readMailbox = async (folder: string): Promise<TDevMailboxEntry[]> => {
  const names = await readdir(folder).catch(() => [] as string[]);
  return Promise.all(
    names
      .filter((name) => name.endsWith('.json'))
      .sort()
      .reverse()
      .map(async (name) =>
        ZDevMailboxEntry.parse(JSON.parse(await readFile(join(folder, name), 'utf8'))),
      ),
  );
};
