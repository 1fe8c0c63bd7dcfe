import type { TMailReader } from '@pets/contract/rules';
import type {
  TAccountMailData,
  TAnyMailTemplate,
  TApplicationTemplate,
  TMailRequest,
} from './mail-templates';

/**
 * Whom each message is for, by its template: the adopter (an application's messages, a saved
 * search's), a staff member or admin, or a developer; an account's email by the account's role.
 * A record over every template that is not an application's message to its adopter, so a new
 * template cannot be left without its reader. Said in each message (MAIL_READER_HEADER), so the
 * dev mailbox labels it ("As the staff member sees it").
 */
const READERS: Record<Exclude<TAnyMailTemplate, TApplicationTemplate>, TMailReader | 'account'> = {
  'staff-new-application': 'staff',
  'staff-digest': 'staff',
  'application-links': 'adopter',
  'saved-search-confirm': 'adopter',
  'saved-search-alert': 'adopter',
  'account-verify': 'account',
  'account-reset': 'account',
  'account-invite': 'account',
  'passkey-added': 'account',
  'webhook-disabled': 'developer',
  'plan-request-decided': 'developer',
  'plan-request-received': 'staff',
  'staff-application-withdrawn': 'staff',
};

/**
 * Whether a message carries a credential (the contract's MAIL_CREDENTIAL_HEADER): a single-use link
 * that sets an account's password or proves an address. The dev mailbox shows such a message to its
 * recipient only (docs/decisions.md, "The dev mailbox is for admins"). Over the same templates as
 * READERS: an application's message to its adopter carries its private status link, which shows
 * the application that staff already see, and no credential.
 */
const CARRIES_CREDENTIAL: Record<Exclude<TAnyMailTemplate, TApplicationTemplate>, boolean> = {
  'staff-new-application': false,
  'staff-digest': false,
  'application-links': false,
  'saved-search-confirm': true,
  'saved-search-alert': false,
  'account-verify': true,
  'account-reset': true,
  'account-invite': true,
  'passkey-added': false,
  'webhook-disabled': false,
  'plan-request-decided': false,
  'plan-request-received': false,
  'staff-application-withdrawn': false,
};

const isListed = (template: string): template is keyof typeof READERS =>
  Object.hasOwn(READERS, template);

export const mailReaderOf = (mail: Pick<TMailRequest, 'template' | 'data'>): TMailReader => {
  if (!isListed(mail.template)) {
    // Every other template is an application's message to its adopter.
    return 'adopter';
  }
  const reader = READERS[mail.template];
  if (reader !== 'account') {
    return reader;
  }
  return (mail.data as Pick<TAccountMailData, 'role'>).role === 'developer' ? 'developer' : 'staff';
};

export const mailCarriesCredential = (mail: Pick<TMailRequest, 'template'>): boolean =>
  isListed(mail.template) && CARRIES_CREDENTIAL[mail.template];
