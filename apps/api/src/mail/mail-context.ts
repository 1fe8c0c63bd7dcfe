import type { TConfig } from '../config';
import type { TMailContext } from './mail-templates';

/** The store as its emails describe it, and the site their links lead to. */
export const mailContextOf = (config: TConfig): TMailContext => ({
  store: config.store,
  siteUrl: config.SITE_URL,
});

/** MAIL_FROM, or the store's name and address. */
export const mailFromOf = (config: TConfig): string =>
  config.MAIL_FROM ?? `"${config.store.name.replaceAll('"', "'")}" <${config.store.email}>`;
