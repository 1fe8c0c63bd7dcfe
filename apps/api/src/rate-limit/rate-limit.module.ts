import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Logger } from 'pino';
import { ANONYMOUS_LIMITS } from '../api-keys/api-key-plans';
import { CONFIG } from '../app.tokens';
import type { TConfig } from '../config';
import { LOGGER } from '../logging/logger';
import { createRateLimitStore } from './rate-limit.store-factory';
import {
  DEFAULT_RATE_LIMIT_SETTINGS,
  RATE_LIMIT_SETTINGS,
  RATE_LIMIT_STORE,
  type TRateLimitSettings,
  type TRateLimitStore,
} from './rate-limit.types';

/**
 * The per-plan limits: the throttlers' windows, the store (Redis or memory) and its lifecycle (the
 * guard that counts is the admission's, AdmissionGuard). Global, because
 * the limit is application-wide: its guard is a global guard and readiness reports its store; it is
 * registered once, by AppModule.
 */
@Module({})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: TRateLimitStore) {}

  /** Closes the store (its Redis connection) when the application closes. */
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }

  /** `overrides`: tests only (shorter windows and bans, a Redis key prefix of their own). */
  static register(
    config: Pick<TConfig, 'REDIS_KEY_PREFIX'>,
    overrides: Partial<TRateLimitSettings> = {},
  ): DynamicModule {
    const settings: TRateLimitSettings = {
      ...DEFAULT_RATE_LIMIT_SETTINGS,
      redisKeyPrefix: config.REDIS_KEY_PREFIX,
      ...overrides,
    };
    return {
      module: RateLimitModule,
      global: true,
      imports: [
        ThrottlerModule.forRoot({
          // The windows. Their limits are those of requests without a valid key (per client
          // address); a key's requests get its plan's numbers instead (AdmissionGuard).
          throttlers: [
            { name: 'minute', ttl: settings.minuteMs, limit: ANONYMOUS_LIMITS.perMinute },
            { name: 'day', ttl: settings.dayMs, limit: ANONYMOUS_LIMITS.perDay },
          ],
        }),
      ],
      providers: [
        { provide: RATE_LIMIT_SETTINGS, useValue: settings },
        {
          provide: RATE_LIMIT_STORE,
          useFactory: (appConfig: TConfig, logger: Logger) =>
            createRateLimitStore(appConfig, settings, logger),
          inject: [CONFIG, LOGGER],
        },
      ],
      // The throttlers' options, for the admission's guard (a ThrottlerGuard).
      exports: [ThrottlerModule, RATE_LIMIT_STORE, RATE_LIMIT_SETTINGS],
    };
  }
}
