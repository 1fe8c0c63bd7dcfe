import { Module } from '@nestjs/common';
import { MailRepository } from '@pets/store/mail.repository';
import { WebhooksRepository } from '@pets/store/webhooks.repository';
import type { Pool } from 'pg';
import { PG_POOL } from '../../app.tokens';
import { MailModule } from '../../mail/mail.module';
import { WebhookWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * `/v1/webhook-endpoints` and the worker that sends the events (webhook-worker.ts) in processes
 * with JOBS_WORKER=on. The events come from the events table, written with each change; an endpoint
 * disabled after its retry schedule is told to its owners by email (the outbox).
 */
@Module({
  imports: [MailModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookWorker,
    {
      provide: WebhooksRepository,
      useFactory: (pool: Pool, mail: MailRepository) => new WebhooksRepository(pool, mail),
      inject: [PG_POOL, MailRepository],
    },
  ],
  // The developer portal manages its keys' endpoints through the same service (org-keys).
  exports: [WebhooksService],
})
export class WebhooksModule {}
