import {
  type DynamicModule,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthenticationGuard, RequireApiKeyGuard } from './api-keys/authentication.guard';
import { API_KEY_LOOKUP, type TApiKeyLookup } from './api-keys/caller';
import { CONFIG, PG_POOL, PRISMA } from './app.tokens';
import type { TConfig } from './config';
import type { PrismaClient } from './generated/prisma/client';
import { BodyInterceptor } from './http/body.interceptor';
import { AllExceptionsFilter } from './http/exception.filter';
import { LOGGER } from './logging/logger';
import { CategoriesModule } from './modules/categories/categories.module';
import { DocsModule } from './modules/docs/docs.module';
import { HealthModule } from './modules/health/health.module';
import { OrdersModule } from './modules/orders/orders.module';
import { PetsModule } from './modules/pets/pets.module';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import {
  RATE_LIMIT_STORE,
  type TRateLimitSettings,
  type TRateLimitStore,
} from './rate-limit/rate-limit.types';

/** What the application needs from outside: built once in main.ts (or a test) and injected. */
export type TAppDependencies = {
  config: TConfig;
  prisma: PrismaClient;
  /** The pool Prisma runs on (createPrismaClient(pool)): hot paths query it directly. */
  pool: Pool;
  logger: Logger;
  apiKeyLookup: TApiKeyLookup;
  /** Tests only: shorter windows and bans, a Redis key prefix of their own. */
  rateLimitSettings?: Partial<TRateLimitSettings>;
};

type TModuleDependencies = TAppDependencies & {
  rateLimitStore: TRateLimitStore;
  rateLimitSettings: TRateLimitSettings;
};

/** Closes the rate-limit store (its Redis connection) when the application closes. */
@Injectable()
class RateLimitStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: TRateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class by design.
export class AppModule {
  static register(dependencies: TModuleDependencies): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        RateLimitModule.register(dependencies.rateLimitStore, dependencies.rateLimitSettings),
        PetsModule,
        OrdersModule,
        CategoriesModule,
        HealthModule,
        DocsModule,
      ],
      providers: [
        { provide: CONFIG, useValue: dependencies.config },
        { provide: PRISMA, useValue: dependencies.prisma },
        { provide: PG_POOL, useValue: dependencies.pool },
        { provide: LOGGER, useValue: dependencies.logger },
        { provide: API_KEY_LOOKUP, useValue: dependencies.apiKeyLookup },
        // Also provided here (not only by RateLimitModule) so that readiness can describe it.
        { provide: RATE_LIMIT_STORE, useValue: dependencies.rateLimitStore },
        ApiKeysService,
        RateLimitStoreLifecycle,
        // Guards run in this order on every request: identify the caller, rate limit by key or
        // client address, then refuse callers without a valid key.
        { provide: APP_GUARD, useClass: AuthenticationGuard },
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_GUARD, useClass: RequireApiKeyGuard },
        { provide: APP_INTERCEPTOR, useClass: BodyInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
      exports: [CONFIG, PRISMA, PG_POOL, LOGGER, RATE_LIMIT_STORE, ApiKeysService],
    };
  }
}
