import 'server-only';
import { parseStoreConfig, type TStoreConfig } from '@pets/contract/store';
import { parseWebConfig, type TWebConfig } from './config';

/*
 * The only place in the site (with the edge's server.ts) that reads `process.env`; `server-only`
 * keeps it, and the key, out of browser bundles. Each configuration is read on first use, and
 * instrumentation.ts makes that first use the server's start, so a bad value stops it at once.
 */

let config: TWebConfig | undefined;
let store: TStoreConfig | undefined;

/** The validated configuration (config.ts). */
export const webConfig = (): TWebConfig => {
  config ??= parseWebConfig(process.env);
  return config;
};

/**
 * The store's name, address, hours, contact, time zone and fee (`@pets/contract/store`, the rule
 * the API's emails read too).
 */
export const storeConfig = (): TStoreConfig => {
  store ??= parseStoreConfig(process.env);
  return store;
};
