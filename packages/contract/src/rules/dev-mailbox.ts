// The dev mailbox's entry schema (ZDevMailboxEntry) is in ../schemas/dev-mailbox.ts: zod stays out of
// the rules, which the browser loads.

/** Sorted by name is sorted by id. */
export const mailboxFileName = (id: string): string => id.padStart(10, '0');
