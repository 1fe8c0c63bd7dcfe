import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mailboxFileName } from '@pets/contract/rules';
import { readMailbox } from '../mail/mail-transport';
import { loadCliConfig, type TCliIo, UsageError } from './cli-support';

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/**
 * `pnpm mail`: the dev mailbox (where email goes without SMTP_URL), newest first: when, to whom,
 * the subject, and each message rendered as a file to open in a browser.
 */
export const runMailCommand = async (args: string[], io: TCliIo): Promise<number> => {
  if (args.length > 0) {
    throw new UsageError('pnpm mail takes no arguments');
  }
  const config = loadCliConfig(io.env);
  if (config.SMTP_URL) {
    io.err(
      'SMTP_URL is set: email goes to that server; the dev mailbox keeps only what came before.',
    );
  }
  const messages = await readMailbox(config.mailDir);
  if (messages.length === 0) {
    io.err(`The dev mailbox (${config.mailDir}) is empty.`);
    return 0;
  }
  io.err(`${messages.length} in the dev mailbox (${config.mailDir}), newest first (UTC):`);
  for (const message of messages) {
    io.out(`${when(message.date)}  ${message.to}  ${message.subject}`);
    io.out(`  ${pathToFileURL(join(config.mailDir, `${mailboxFileName(message.id)}.html`)).href}`);
  }
  return 0;
};
