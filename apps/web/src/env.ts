import 'server-only';
import { parseWebConfig, type TWebConfig } from './config';
import { parseStoreConfig, type TStoreConfig } from './store-config';

let config: TWebConfig | undefined;

/**
 * The validated configuration, read from the environment on first use (instrumentation.ts makes
 * that first use the server's start, so a bad value stops the server at once). The only place in
 * the site that reads `process.env`; `server-only` keeps it (and the key) out of browser bundles.
 */
export const webConfig = (): TWebConfig => {
  config ??= parseWebConfig({
    API_URL: process.env.API_URL,
    WEB_API_KEY: process.env.WEB_API_KEY,
    SESSION_SECRET: process.env.SESSION_SECRET,
    SITE_URL: process.env.SITE_URL,
    TRUSTED_PROXIES: process.env.TRUSTED_PROXIES,
    REDIS_URL: process.env.REDIS_URL,
    WEB_REDIS_KEY_PREFIX: process.env.WEB_REDIS_KEY_PREFIX,
    VISITOR_LIMITS: process.env.VISITOR_LIMITS,
    STAFF_SESSION_IDLE_SECONDS: process.env.STAFF_SESSION_IDLE_SECONDS,
    PUBLIC_CACHE_SECONDS: process.env.PUBLIC_CACHE_SECONDS,
  });
  return config;
};

let store: TStoreConfig | undefined;

/** The store's address, opening hours and reply time (store-config.ts), read on first use. */
export const storeConfig = (): TStoreConfig => {
  store ??= parseStoreConfig({
    STORE_ADDRESS: process.env.STORE_ADDRESS,
    STORE_OPENING_HOURS: process.env.STORE_OPENING_HOURS,
    STORE_REPLY_DAYS: process.env.STORE_REPLY_DAYS,
  });
  return store;
};
