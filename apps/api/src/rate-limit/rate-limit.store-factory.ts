import type { Logger } from 'pino';
import type { TConfig } from '../config';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { TRateLimitSettings, TRateLimitStore } from './rate-limit.types';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/**
 * REDIS_URL set: limits shared by every instance through Redis (this process's memory while Redis
 * is unavailable). Unset: this process's memory. Memory holds at most
 * RATE_LIMIT_MEMORY_MAX_TRACKERS trackers either way.
 */
export const createRateLimitStore = async (
  config: Pick<TConfig, 'REDIS_URL' | 'RATE_LIMIT_MEMORY_MAX_TRACKERS'>,
  settings: TRateLimitSettings,
  logger: Logger,
): Promise<TRateLimitStore> => {
  if (!config.REDIS_URL) {
    logger.info({ backend: 'memory' }, 'rate limits kept in process memory (REDIS_URL unset)');
    return new MemoryRateLimitStore(Date.now, config.RATE_LIMIT_MEMORY_MAX_TRACKERS);
  }
  const store = new RedisRateLimitStore(
    config.REDIS_URL,
    settings.redisKeyPrefix,
    logger,
    config.RATE_LIMIT_MEMORY_MAX_TRACKERS,
  );
  if (await store.connect()) {
    logger.info({ backend: 'redis' }, 'rate limits shared through Redis');
  }
  return store;
};
