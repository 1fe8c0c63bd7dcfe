// The dev mailbox's entry schema (ZDevMailboxEntry) is in ../schemas/dev-mailbox.ts: zod stays out of
// the rules, which the browser loads.

/** Sorted by name is sorted by id. */
export const mailboxFileName = (id: string): string => id.padStart(10, '0');

/**
 * Whom a message of the store is for: an adopter (or someone looking for an animal), a staff
 * member or admin of the store, or a developer of the portal. The API says so in each message's
 * MAIL_READER_HEADER, so the dev mailbox (and a test's mail server) can label it.
 */
export const MAIL_READERS = ['adopter', 'staff', 'developer'] as const;
export type TMailReader = (typeof MAIL_READERS)[number];

export const MAIL_READER_HEADER = 'X-Pets-Reader';

/**
 * Said (value `yes`) in a message that carries a credential: a single-use link that sets a password
 * (reset, invitation) or proves an address (an account's or a saved search's confirmation). The dev
 * mailbox keeps it as its entry's `credential`, and /staff/mail shows such a message to its
 * recipient only; everyone else sees its envelope.
 */
export const MAIL_CREDENTIAL_HEADER = 'X-Pets-Credential';
