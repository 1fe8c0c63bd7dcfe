import { StoreConfigError } from '@pets/contract/store';
import { ConfigError } from './config';
import { storeConfig, webConfig } from './env';

// Validate the configuration as the server starts, so a missing WEB_API_KEY, a malformed API_URL
// or an unknown STORE_TIME_ZONE stops `next start` with one clear line instead of failing on the
// first visit.
try {
  webConfig();
  storeConfig();
} catch (error) {
  if (error instanceof ConfigError || error instanceof StoreConfigError) {
    console.error(`[web] ${error.message}`);
    process.exit(1);
  }
  throw error;
}
