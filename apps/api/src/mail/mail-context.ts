import { orderStatusPagePath } from '@pets/contract/schemas';
import type { TConfig } from '../config';
import type { TAccountLinkPurpose } from '../links/account-links';
import type { TSavedSearchLinkPurpose } from '../links/saved-search-links';
import type { TAccountMailData, TMailContext } from './mail-templates';

/** Where each account link leads on the site: the developer portal or the back office. */
const accountPath = (
  purpose: TAccountLinkPurpose,
  data: TAccountMailData,
  token: string,
): string => {
  const area = data.role === 'developer' ? '/developers' : '/staff';
  return `${area}/${purpose}/${token}`;
};

/**
 * The store as its emails describe it, and the site their links lead to; `sign` makes an
 * application's private link token (apps/api/src/links/order-links.ts).
 */
export const mailContextOf = (
  config: TConfig,
  sign: (orderId: number) => string,
  signAccount: (purpose: TAccountLinkPurpose, accountId: string, binding: string) => string,
  signSavedSearch: (purpose: TSavedSearchLinkPurpose, searchId: string) => string,
): TMailContext => ({
  store: config.store,
  siteUrl: config.SITE_URL,
  statusUrl: (orderId) => `${config.SITE_URL}${orderStatusPagePath(sign(orderId))}`,
  accountUrl: (purpose, data) =>
    `${config.SITE_URL}${accountPath(purpose, data, signAccount(purpose, data.accountId, data.binding))}`,
  savedSearchUrl: (purpose, searchId) =>
    `${config.SITE_URL}/saved-searches/${purpose}/${signSavedSearch(purpose, searchId)}`,
});

/** MAIL_FROM, or the store's name and address. */
export const mailFromOf = (config: TConfig): string =>
  config.MAIL_FROM ?? `"${config.store.name.replaceAll('"', "'")}" <${config.store.email}>`;
