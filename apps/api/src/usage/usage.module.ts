import { Module } from '@nestjs/common';
import { UsageRepository } from '@pets/store/usage.repository';
import type { Pool } from 'pg';
import { PG_POOL } from '../app.tokens';
import { JobsModule } from '../jobs/jobs.module';
import { UsageCounter } from './usage-counter';
import { UsageRetention } from './usage-retention';

/**
 * Each key's requests per hour and status class: counted in memory by `UsageCounter` (fed by the
 * access-log hook of app.ts), written in batches, and swept after USAGE_RETENTION_DAYS.
 */
@Module({
  imports: [JobsModule],
  providers: [
    UsageCounter,
    UsageRetention,
    {
      provide: UsageRepository,
      useFactory: (pool: Pool) => new UsageRepository(pool),
      inject: [PG_POOL],
    },
  ],
  exports: [UsageCounter],
})
export class UsageModule {}
