import 'server-only';
import { formatStoreInstant, type TInstantStyle } from '@pets/contract/store';
import { storeConfig } from '@/env';

/**
 * An instant as the site shows it: on the store's clock (STORE_TIME_ZONE) with the zone's
 * abbreviation, "26 Nov 2026, 18:05 GMT". The server's own zone never shows.
 */
export const storeTime = (instant: string | Date, style?: TInstantStyle): string =>
  formatStoreInstant(instant, storeConfig().timeZone, style);
