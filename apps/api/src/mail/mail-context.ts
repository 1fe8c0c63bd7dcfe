import type { TConfig } from '../config';
import type { TMailContext } from './mail-templates';

/** The store as its emails describe it, and the site their links lead to. */
export const mailContextOf = (config: TConfig): TMailContext => ({
  store: {
    name: 'Millbrook Animal Rescue',
    address: '12 Orchard Lane, Millbrook, MB1 2PA',
    openingHours: 'Tuesday to Saturday, 10:00 to 17:00',
    phone: '+44 20 7946 0000',
    email: 'adopt@millbrook.example',
    timeZone: 'Europe/London',
  },
  siteUrl: config.SITE_URL,
});

/** MAIL_FROM, or the store's name and address. */
export const mailFromOf = (config: TConfig): string =>
  config.MAIL_FROM ??
  `"${mailContextOf(config).store.name}" <${mailContextOf(config).store.email}>`;
