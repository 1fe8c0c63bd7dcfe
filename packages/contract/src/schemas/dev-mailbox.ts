import { z } from 'zod';

/**
 * The dev mailbox: where the API's mail worker puts every message when no mail server is
 * configured (SMTP_URL unset), read by `pnpm mail` and the site's /staff/mail. A folder with, per
 * message, `<name>.eml` (the message as sent), `<name>.html` (its HTML part) and `<name>.json`
 * (this entry), `<name>` being `mailboxFileName(id)`. The JSON is written last: a listed message
 * is complete.
 */
export const ZDevMailboxEntry = z.object({
  /** The outbox id of the message. */
  id: z.string().regex(/^\d{1,19}$/),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  /** When it was written, RFC 3339. */
  date: z.string().datetime(),
  text: z.string(),
  html: z.string(),
});
export type TDevMailboxEntry = z.infer<typeof ZDevMailboxEntry>;
