import type { Logger } from 'pino';
import type { TConfig } from '../config';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { TRateLimitSettings, TRateLimitStore } from './rate-limit.types';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/** REDIS_URL set: limits shared by every instance through Redis. Unset: this process's memory. */
export const createRateLimitStore = async (
  config: Pick<TConfig, 'REDIS_URL'>,
  settings: TRateLimitSettings,
  logger: Logger,
): Promise<TRateLimitStore> => {
  if (!config.REDIS_URL) {
    logger.info({ backend: 'memory' }, 'rate limits kept in process memory (REDIS_URL unset)');
    return new MemoryRateLimitStore();
  }
  const store = new RedisRateLimitStore(config.REDIS_URL, settings.redisKeyPrefix, logger);
  if (await store.connect()) {
    logger.info({ backend: 'redis' }, 'rate limits shared through Redis');
  }
  return store;
};
