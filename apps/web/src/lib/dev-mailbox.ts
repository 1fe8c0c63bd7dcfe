import 'server-only';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mailboxFileName, type TMailReader } from '@pets/contract/rules';
import { type TDevMailboxEntry, ZDevMailboxEntry } from '@pets/contract/schemas';
import { isSameEmail } from './email-match';

/**
 * The API's dev mailbox (the contract's dev-mailbox.ts), read from its folder: the site and the API
 * run on one machine in the setups that have one (`pnpm start`, `pnpm dev`).
 */

const readEntry = async (folder: string, name: string): Promise<TDevMailboxEntry | undefined> => {
  try {
    const parsed = ZDevMailboxEntry.safeParse(
      JSON.parse(await readFile(join(folder, name), 'utf8')),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

/** The newest `limit` messages, newest first; none when the folder does not exist yet. */
export const listDevMailbox = async (folder: string, limit = 200): Promise<TDevMailboxEntry[]> => {
  const names = await readdir(folder).catch(() => [] as string[]);
  const newest = names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse()
    .slice(0, limit);
  const entries = await Promise.all(newest.map((name) => readEntry(folder, name)));
  return entries.filter((entry) => entry !== undefined);
};

/** One message by its id; undefined for an id that is not a number or names no message. */
export const readDevMail = async (
  folder: string,
  id: string,
): Promise<TDevMailboxEntry | undefined> =>
  /^\d{1,19}$/.test(id) ? readEntry(folder, `${mailboxFileName(id)}.json`) : undefined;

/** Whom a message is for (its `reader`), as the dev mailbox labels it. */
export const MAIL_READER_WORDS: Record<TMailReader, { reader: string; sees: string }> = {
  adopter: { reader: 'the adopter', sees: 'As the adopter sees it' },
  staff: { reader: 'a staff member', sees: 'As the staff member sees it' },
  developer: { reader: 'a developer', sees: 'As the developer sees it' },
};

/**
 * Whether the admin signed in as `email` may read a message: any message without a credential, and
 * one carrying a credential (a reset, an invitation, a confirmation link) only when it is theirs.
 * A message written before the mailbox said so counts as carrying one.
 */
export const isReadableBy = (message: TDevMailboxEntry, email: string): boolean =>
  message.credential === false || isSameEmail(message.to, email);
