import { Module } from '@nestjs/common';
import { WebhooksRepository } from '@pets/store/webhooks.repository';
import type { Pool } from 'pg';
import { PG_POOL } from '../../app.tokens';
import { WebhookWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * `/v1/webhook-endpoints` and the worker that sends the events (webhook-worker.ts) in processes
 * with JOBS_WORKER=on. The events come from the events table, written with each change.
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookWorker,
    {
      provide: WebhooksRepository,
      useFactory: (pool: Pool) => new WebhooksRepository(pool),
      inject: [PG_POOL],
    },
  ],
})
export class WebhooksModule {}
