import {
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { LOGGER } from '../logging/logger';
import { createJobQueue, type TJobQueue } from './job-queue';

export const JOB_QUEUE = Symbol('JOB_QUEUE');

const RETRY_START_MS = 5_000;

/**
 * Starts the queue with the application and stops it with it (the job in hand finishes). A
 * database that does not answer at start does not stop the API (it serves 503s until the
 * database is back, as readiness says): the queue tries again every few seconds.
 */
class JobQueueLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private retry: NodeJS.Timeout | undefined;
  private isShuttingDown = false;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: TJobQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.attempt();
  }

  private async attempt(): Promise<void> {
    try {
      await this.queue.start();
    } catch (error) {
      if (this.isShuttingDown) {
        return;
      }
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error), retryInMs: RETRY_START_MS },
        'job queue not started: the database did not answer; trying again',
      );
      this.retry = setTimeout(() => void this.attempt(), RETRY_START_MS);
      this.retry.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.isShuttingDown = true;
    clearTimeout(this.retry);
    try {
      await this.queue.stop();
    } catch (error) {
      // Its jobs are rows in the database: a job in hand is retried by the next process. A queue
      // that cannot stop cleanly must not turn a clean shutdown into a failed one.
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'job queue did not stop cleanly',
      );
    }
  }
}

/** The job queue on the API's database (job-queue.ts). */
@Module({
  providers: [
    {
      provide: JOB_QUEUE,
      useFactory: (pool: Pool, logger: Logger, config: TConfig) =>
        createJobQueue({ pool, logger, isEmbedded: config.DATABASE_URL === undefined }),
      inject: [PG_POOL, LOGGER, CONFIG],
    },
    JobQueueLifecycle,
  ],
  exports: [JOB_QUEUE],
})
export class JobsModule {}
