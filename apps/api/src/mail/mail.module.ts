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
import type { TJobQueue } from '../jobs/job-queue';
import { JOB_QUEUE, JobsModule } from '../jobs/jobs.module';
import { OrderLinks } from '../links/order-links';
import { LOGGER } from '../logging/logger';
import { startMailWorker } from './mail.worker';
import { mailContextOf, mailFromOf } from './mail-context';
import { mailboxTransport, smtpTransport, type TMailTransport } from './mail-transport';

/** Runs the mail worker in this process when JOBS_WORKER is on (the default). */
class MailWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private transport: TMailTransport | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(JOB_QUEUE) private readonly queue: TJobQueue,
    @Inject(MailRepository) private readonly mail: MailRepository,
    @Inject(OrderLinks) private readonly links: OrderLinks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    this.transport = this.config.SMTP_URL
      ? smtpTransport(this.config.SMTP_URL)
      : mailboxTransport(this.config.mailDir);
    // Not awaited: the worker starts once the queue has (jobs.module.ts), which may be later.
    void startMailWorker({
      queue: this.queue,
      mail: this.mail,
      transport: this.transport,
      contextFor: async () => mailContextOf(this.config, await this.links.signer()),
      siteUrl: this.config.SITE_URL,
      from: mailFromOf(this.config),
      logger: this.logger,
    }).catch((error: unknown) =>
      this.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'mail worker not started',
      ),
    );
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
    MailWorker,
  ],
  exports: [MailRepository, OrderLinks],
})
export class MailModule {}
