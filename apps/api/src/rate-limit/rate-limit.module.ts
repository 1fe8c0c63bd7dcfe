import { type DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { RateLimitGuard } from './rate-limit.guard';
import {
  RATE_LIMIT_SETTINGS,
  RATE_LIMIT_STORE,
  type TRateLimitSettings,
  type TRateLimitStore,
} from './rate-limit.types';

@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class by design.
export class RateLimitModule {
  static register(store: TRateLimitStore, settings: TRateLimitSettings): DynamicModule {
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRoot({
          // Limits are per plan: the guard reads them from the caller; these name the windows.
          throttlers: [
            { name: 'minute', ttl: settings.minuteMs, limit: 0 },
            { name: 'day', ttl: settings.dayMs, limit: 0 },
          ],
          storage: store,
          setHeaders: false,
        }),
      ],
      providers: [
        { provide: RATE_LIMIT_SETTINGS, useValue: settings },
        { provide: RATE_LIMIT_STORE, useValue: store },
        RateLimitGuard,
      ],
      exports: [RateLimitGuard, RATE_LIMIT_STORE, RATE_LIMIT_SETTINGS],
    };
  }
}
