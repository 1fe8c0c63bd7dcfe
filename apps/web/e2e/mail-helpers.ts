import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TDevMailboxEntry, ZDevMailboxEntry } from '@pets/contract/schemas';
import { expect } from '@playwright/test';
import type { TStack } from './harness/stack';

/** Every message the test SMTP server accepted so far (harness/smtp.ts), oldest first. */
export const receivedMail = (stack: TStack): TDevMailboxEntry[] =>
  readdirSync(stack.mailDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) =>
      ZDevMailboxEntry.parse(JSON.parse(readFileSync(join(stack.mailDir, name), 'utf8'))),
    );

/** The messages to `to`, oldest first. */
export const mailTo = (stack: TStack, to: string): TDevMailboxEntry[] =>
  receivedMail(stack).filter((message) => message.to.includes(to));

/**
 * Waits until `to` has received a message whose subject matches, and returns it. The queue sends
 * within a second or two of the change; a generous wait covers a busy machine.
 */
export const waitForMail = async (
  stack: TStack,
  to: string,
  subject: RegExp,
  timeoutMs = 30_000,
): Promise<TDevMailboxEntry> => {
  let found: TDevMailboxEntry | undefined;
  await expect
    .poll(
      () => {
        found = mailTo(stack, to).find((message) => subject.test(message.subject));
        return found !== undefined;
      },
      { timeout: timeoutMs, message: `an email to ${to} with a subject like ${subject}` },
    )
    .toBe(true);
  return found as TDevMailboxEntry;
};

/** The links of a message's HTML (href values), in order. */
export const linksOf = (message: TDevMailboxEntry): string[] =>
  [...message.html.matchAll(/href="([^"]+)"/g)].map((match) =>
    (match[1] ?? '').replaceAll('&amp;', '&'),
  );
