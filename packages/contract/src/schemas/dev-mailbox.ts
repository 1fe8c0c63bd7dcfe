import { z } from 'zod';
import { MAIL_READERS } from '../rules/dev-mailbox';

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
  /** Whom it is for (its MAIL_READER_HEADER); absent in messages written before it was said. */
  reader: z.enum(MAIL_READERS).optional(),
  /**
   * Whether it carries a credential (MAIL_CREDENTIAL_HEADER): shown at /staff/mail to its recipient
   * only. Absent (a message written before it was said) counts as carrying one.
   */
  credential: z.boolean().optional(),
});
export type TDevMailboxEntry = z.infer<typeof ZDevMailboxEntry>;
