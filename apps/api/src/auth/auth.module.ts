import { type DynamicModule, Module } from '@nestjs/common';
import {
  ApiKeysService,
  DEFAULT_KEY_CACHE_SETTINGS,
  KEY_CACHE_SETTINGS,
  type TKeyCacheSettings,
} from '../api-keys/api-keys.service';
import { API_KEY_LOOKUP, type TApiKeyLookup } from '../api-keys/caller';
import { SessionActivity } from '../api-keys/session-activity';
import { CONFIG } from '../app.tokens';
import type { TConfig } from '../config';
import { AuthService } from './auth.service';
import {
  FAILED_AUTH_POLICY,
  FailedAuthBudget,
  failedAuthPolicyOf,
  type TFailedAuthPolicy,
} from './failed-auth-budget';

export type TAuthDependencies = {
  /** Finds a stored key by the SHA-256 of the presented key (the database, in production). */
  apiKeyLookup: TApiKeyLookup;
  /** Tests only: a clock of their own (and shorter ages), instead of waiting for the cache. */
  keyCache?: Partial<TKeyCacheSettings>;
};

/**
 * Who is calling: the key service and its caches, the failed-authentication budget (kept in the
 * global rate-limit store) and `identify`, which the admission (AdmissionGuard) runs first.
 */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class by design.
export class AuthModule {
  static register({ apiKeyLookup, keyCache }: TAuthDependencies): DynamicModule {
    return {
      module: AuthModule,
      // Global: the accounts module evicts the keys it revokes and flushes session activity.
      global: true,
      providers: [
        { provide: API_KEY_LOOKUP, useValue: apiKeyLookup },
        { provide: KEY_CACHE_SETTINGS, useValue: { ...DEFAULT_KEY_CACHE_SETTINGS, ...keyCache } },
        {
          provide: FAILED_AUTH_POLICY,
          useFactory: (config: TConfig): TFailedAuthPolicy => failedAuthPolicyOf(config),
          inject: [CONFIG],
        },
        ApiKeysService,
        SessionActivity,
        FailedAuthBudget,
        AuthService,
      ],
      exports: [AuthService, ApiKeysService, SessionActivity],
    };
  }
}
