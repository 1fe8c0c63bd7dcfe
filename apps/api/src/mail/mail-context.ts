import { orderStatusPagePath } from '@pets/contract/schemas';
import type { TConfig } from '../config';
import type { TMailContext } from './mail-templates';

/**
 * The store as its emails describe it, and the site their links lead to; `sign` makes an
 * application's private link token (apps/api/src/links/order-links.ts).
 */
export const mailContextOf = (
  config: TConfig,
  sign: (orderId: number) => string,
): TMailContext => ({
  store: config.store,
  siteUrl: config.SITE_URL,
  statusUrl: (orderId) => `${config.SITE_URL}${orderStatusPagePath(sign(orderId))}`,
});

/** MAIL_FROM, or the store's name and address. */
export const mailFromOf = (config: TConfig): string =>
  config.MAIL_FROM ?? `"${config.store.name.replaceAll('"', "'")}" <${config.store.email}>`;
