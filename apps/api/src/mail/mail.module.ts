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
      context: mailContextOf(this.config),
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

/** Email: the outbox (MailRepository, for the features' transactions) and its worker. */
@Module({
  imports: [JobsModule],
  providers: [
    {
      provide: MailRepository,
      useFactory: (pool: Pool, queue: TJobQueue) => new MailRepository(pool, queue),
      inject: [PG_POOL, JOB_QUEUE],
    },
    MailWorker,
  ],
  exports: [MailRepository],
})
export class MailModule {}
