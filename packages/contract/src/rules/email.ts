/**
 * The one rule for an email address, wherever one is typed or sent: an adopter's, a person's
 * account (sign-in, sign-up, invitations, resets), a saved search's, the store's own
 * (`STORE_EMAIL`), the sender of its emails (`MAIL_FROM`) and the CLI's `--email`. The site checks
 * its forms with it, the API its requests, and the OpenAPI document states it as its `pattern`
 * (docs/decisions.md, "One rule for email addresses").
 *
 * An address is a local part of RFC 5322 "atext" runs joined by single dots, an `@`, and a domain
 * of one or more labels (letters, digits and inner hyphens, 1 to 63 characters) joined by dots: a
 * single-label domain such as `localhost` is an address, as it is for HTML's `type="email"` and
 * for RFC 5321, so the first admin `pnpm start` makes (`admin@localhost`) can sign in and be
 * mailed. Quoted local parts, address literals (`[127.0.0.1]`), non-ASCII and surrounding spaces
 * are not: no mail service we send through needs them, and each reads differently in each tool.
 */
export const EMAIL_MAX_LENGTH = 254;

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/** The shape of an address, anchored: the OpenAPI document's `pattern`, as written here. */
export const EMAIL_PATTERN = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*@${LABEL}(?:\\.${LABEL})*$`);

/** Whether `text` is an address, exactly as sent (no trimming: a form trims what was typed). */
export const isEmailAddress = (text: string): boolean =>
  text.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(text);

/** The refusal the API gives under a field's name ("adopter.email: must be ..."). */
export const EMAIL_MESSAGE = 'must be a valid email address, such as name@example.org';
