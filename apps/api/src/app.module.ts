import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { AdmissionGuard } from './admission/admission.guard';
import { AuthModule, type TAuthDependencies } from './auth/auth.module';
import { CoreModule, type TCoreDependencies } from './core/core.module';
import { ConditionHeadersInterceptor } from './http/condition-headers.interceptor';
import { AllExceptionsFilter } from './http/exception.filter';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyModule } from './idempotency/idempotency.module';
import {
  DEFAULT_IDEMPOTENCY_SETTINGS,
  type TIdempotencySettings,
} from './idempotency/idempotency.types';
import { MailModule } from './mail/mail.module';
import { CategoriesModule } from './modules/categories/categories.module';
import { DocsModule } from './modules/docs/docs.module';
import { EventsModule } from './modules/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { MeModule } from './modules/me/me.module';
import { MediaModule } from './modules/media/media.module';
import { OrdersModule } from './modules/orders/orders.module';
import { PetsModule } from './modules/pets/pets.module';
import { PhotosModule } from './modules/photos/photos.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { OrgKeysModule } from './org-keys/org-keys.module';
import { PlansModule } from './plans/plans.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import type { TRateLimitSettings } from './rate-limit/rate-limit.types';
import { SavedSearchesModule } from './saved-searches/saved-searches.module';
import { UsageModule } from './usage/usage.module';

/** What the application needs from outside: built once in main.ts (or a test) and injected. */
export type TAppDependencies = TCoreDependencies &
  TAuthDependencies & {
    /** Tests only: shorter windows and bans, a Redis key prefix of their own. */
    rateLimitSettings?: Partial<TRateLimitSettings>;
    /** Tests only: a clock of their own, a shorter wait, a sweeper that runs often. */
    idempotencySettings?: Partial<TIdempotencySettings>;
  };

/**
 * The application: its rooms, and what runs around every handler. One guard admits every request
 * (AdmissionGuard: identify the caller, rate limit by key or client address, the handler's @Access
 * rule and the operation's permission, then the body's usability), all before any validation of
 * the input. Then the interceptors of If-None-Match and If-Match (their length) and of
 * Idempotency-Key (a replay is still a counted, authenticated request).
 */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class by design.
export class AppModule {
  static register(dependencies: TAppDependencies): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(dependencies),
        AuthModule.register(dependencies),
        RateLimitModule.register(dependencies.config, dependencies.rateLimitSettings),
        IdempotencyModule.register({
          ...DEFAULT_IDEMPOTENCY_SETTINGS,
          ttlMs: dependencies.config.IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000,
          ...dependencies.idempotencySettings,
        }),
        PetsModule,
        PhotosModule,
        MediaModule,
        OrdersModule,
        MailModule,
        CategoriesModule,
        MeModule,
        EventsModule,
        WebhooksModule,
        AccountsModule,
        OrgKeysModule,
        SavedSearchesModule,
        PlansModule,
        HealthModule,
        DocsModule,
        UsageModule,
      ],
      providers: [
        AdmissionGuard,
        { provide: APP_GUARD, useExisting: AdmissionGuard },
        // After admission, before the handler: a condition too long or empty is a 400.
        { provide: APP_INTERCEPTOR, useClass: ConditionHeadersInterceptor },
        // After admission: only a usable body is hashed and stored.
        { provide: APP_INTERCEPTOR, useExisting: IdempotencyInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
