import {
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { MailRepository } from '@pets/store/mail.repository';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { QUEUES, type TJobQueue } from '../jobs/job-queue';
import { JOB_QUEUE, JobsModule } from '../jobs/jobs.module';
import { runOnSchedule, startInBackground } from '../jobs/scheduled-job';
import { AccountLinks } from '../links/account-links';
import { OrderLinks } from '../links/order-links';
import { SavedSearchLinks } from '../links/saved-search-links';
import { LOGGER } from '../logging/logger';
import { startMailWorker } from './mail.worker';
import { mailContextOf, mailFromOf } from './mail-context';
import { mailboxTransport, smtpTransport, type TMailTransport } from './mail-transport';
import { digestCron, queueStaffDigest } from './staff-digest';

/** Runs the mail worker in this process when JOBS_WORKER is on (the default). */
class MailWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private transport: TMailTransport | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(JOB_QUEUE) private readonly queue: TJobQueue,
    @Inject(MailRepository) private readonly mail: MailRepository,
    @Inject(OrderLinks) private readonly links: OrderLinks,
    @Inject(AccountLinks) private readonly accountLinks: AccountLinks,
    @Inject(SavedSearchLinks) private readonly savedSearchLinks: SavedSearchLinks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    this.transport = this.config.SMTP_URL
      ? smtpTransport(this.config.SMTP_URL)
      : mailboxTransport(this.config.mailDir);
    const transport = this.transport;
    startInBackground(this.logger, 'mail worker not started', () =>
      startMailWorker({
        queue: this.queue,
        mail: this.mail,
        transport,
        contextFor: async () =>
          mailContextOf(
            this.config,
            await this.links.signer(),
            await this.accountLinks.signer(),
            await this.savedSearchLinks.signer(),
          ),
        siteUrl: this.config.SITE_URL,
        from: mailFromOf(this.config),
        logger: this.logger,
      }),
    );
    startInBackground(this.logger, 'staff digest not scheduled', () => this.startDigest());
  }

  /**
   * STAFF_DIGEST=daily: the digest's schedule (every worker process sets the same one) and its
   * job; `immediate`: no schedule, so switching back stops the digests.
   */
  private async startDigest(): Promise<void> {
    if (this.config.STAFF_DIGEST === 'immediate') {
      await this.queue.unschedule(QUEUES.staffDigest);
      return;
    }
    const schedule = {
      cron: digestCron(this.config.STAFF_DIGEST_HOUR),
      timeZone: this.config.store.timeZone,
    };
    await runOnSchedule(this.queue, QUEUES.staffDigest, schedule, async () => {
      const listed = await queueStaffDigest(this.pool, this.mail, this.config.store.email);
      this.logger.info({ applications: listed }, 'staff digest queued');
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}

/**
 * Email: the outbox (MailRepository, for the features' transactions), its worker, and the signer
 * of the private links the emails carry (OrderLinks, which the orders' link operations check with).
 */
@Module({
  imports: [JobsModule],
  providers: [
    {
      provide: MailRepository,
      useFactory: (pool: Pool, queue: TJobQueue) => new MailRepository(pool, queue),
      inject: [PG_POOL, JOB_QUEUE],
    },
    {
      provide: OrderLinks,
      useFactory: (pool: Pool) => new OrderLinks(pool),
      inject: [PG_POOL],
    },
    {
      provide: AccountLinks,
      useFactory: (pool: Pool) => new AccountLinks(pool),
      inject: [PG_POOL],
    },
    {
      provide: SavedSearchLinks,
      useFactory: (pool: Pool) => new SavedSearchLinks(pool),
      inject: [PG_POOL],
    },
    MailWorker,
  ],
  exports: [MailRepository, OrderLinks, AccountLinks, SavedSearchLinks],
})
export class MailModule {}
