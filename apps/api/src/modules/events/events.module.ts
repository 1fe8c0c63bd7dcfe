import { Module } from '@nestjs/common';
import { EventsRepository } from '@pets/store/events.repository';
import type { Pool } from 'pg';
import { PG_POOL } from '../../app.tokens';
import { JobsModule } from '../../jobs/jobs.module';
import { EventRetention } from './event-retention';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

/**
 * `GET /v1/events`. The events themselves are written by the repositories, in the transaction of
 * each change (packages/store: pets, photos, and the orders' change hook).
 */
@Module({
  imports: [JobsModule],
  controllers: [EventsController],
  providers: [
    EventsService,
    EventRetention,
    {
      provide: EventsRepository,
      useFactory: (pool: Pool) => new EventsRepository(pool),
      inject: [PG_POOL],
    },
  ],
})
export class EventsModule {}
