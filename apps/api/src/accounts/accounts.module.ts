import {
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { MailRepository } from '@pets/store/mail.repository';
import { PasswordHasher } from '@pets/store/password';
import { SessionsRepository } from '@pets/store/sessions.repository';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { SessionActivity } from '../api-keys/session-activity';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { JobsModule } from '../jobs/jobs.module';
import { AccountLinks } from '../links/account-links';
import { LOGGER } from '../logging/logger';
import { MailModule } from '../mail/mail.module';
import { RATE_LIMIT_STORE, type TRateLimitStore } from '../rate-limit/rate-limit.types';
import {
  AccountController,
  AuditController,
  AuthController,
  SessionController,
  TeamController,
} from './accounts.controller';
import { ACCOUNTS_DEPS, AccountsService, type TAccountsDeps } from './accounts.service';
import { PasskeysService } from './passkeys.service';
import { SessionSweep } from './session-sweep';
import { SignInThrottle } from './sign-in-throttle';

/** How often the sessions' last use is written to the database (one statement for all). */
const LAST_SEEN_FLUSH_MS = 5_000;

/**
 * Writes the sessions' last use (SessionActivity) to `account_sessions.last_seen_at` every few
 * seconds, and once more at shutdown: no write per request. Slice 1's usage flusher may absorb
 * this (one timer for both); the hook is `SessionActivity.drain()` plus `SessionsRepository.touch`.
 */
class LastSeenFlusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly activity: SessionActivity,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), LAST_SEEN_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async flush(): Promise<void> {
    const seen = this.activity.drain();
    try {
      await new SessionsRepository(this.pool).touch(seen);
    } catch (error) {
      // Lost uses only make an idle session end a little sooner on other replicas.
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error), sessions: seen.size },
        'session last-seen times not written',
      );
    }
  }
}

/** People's accounts and sessions: the site-only contract's auth, session, account and team. */
@Module({
  imports: [MailModule, JobsModule],
  controllers: [
    AuthController,
    SessionController,
    AccountController,
    TeamController,
    AuditController,
  ],
  providers: [
    {
      provide: ACCOUNTS_DEPS,
      useFactory: (
        pool: Pool,
        config: TConfig,
        links: AccountLinks,
        mail: MailRepository,
        store: TRateLimitStore,
        logger: Logger,
      ): TAccountsDeps => ({
        pool,
        hasher: new PasswordHasher({
          memoryKiB: config.PASSWORD_HASH_MEMORY_KIB,
          concurrency: config.PASSWORD_HASH_CONCURRENCY,
        }),
        links,
        mail,
        throttle: new SignInThrottle(store, config.SIGN_IN_ACCOUNT_LIMIT, logger),
      }),
      inject: [PG_POOL, CONFIG, AccountLinks, MailRepository, RATE_LIMIT_STORE, LOGGER],
    },
    AccountsService,
    PasskeysService,
    LastSeenFlusher,
    SessionSweep,
  ],
})
export class AccountsModule {}
