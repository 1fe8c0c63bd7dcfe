import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { UsageRepository } from '@pets/store/usage.repository';
import type { Logger } from 'pino';
import { CONFIG } from '../app.tokens';
import type { TConfig } from '../config';
import { QUEUES, type TJobQueue } from '../jobs/job-queue';
import { JOB_QUEUE } from '../jobs/jobs.module';
import { inBatches, runOnSchedule, startInBackground } from '../jobs/scheduled-job';
import { LOGGER } from '../logging/logger';

/** Hours of usage kept: the portal's 30 days of charts, and a margin. */
export const USAGE_RETENTION_DAYS = 35;
/** Every day at 03:45 UTC, after the events' retention. */
export const USAGE_RETENTION_CRON = '45 3 * * *';
/** Rows deleted per statement: a backlog is worked through in bounded steps. */
const PRUNE_BATCH = 5_000;
const DAY_MS = 86_400_000;

/** Deletes the usage hours older than USAGE_RETENTION_DAYS, until none is left; answers how many. */
export const pruneUsage = async (
  usage: UsageRepository,
  now: number = Date.now(),
): Promise<number> => {
  const before = new Date(now - USAGE_RETENTION_DAYS * DAY_MS);
  return inBatches(PRUNE_BATCH, (limit) => usage.prune(before, limit));
};

/** The daily deletion of old usage hours, in every process that runs the job queue's worker. */
export class UsageRetention implements OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(JOB_QUEUE) private readonly queue: TJobQueue,
    @Inject(UsageRepository) private readonly usage: UsageRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    startInBackground(this.logger, 'deletion of old usage not scheduled', () =>
      runOnSchedule(
        this.queue,
        QUEUES.pruneUsage,
        { cron: USAGE_RETENTION_CRON, timeZone: 'UTC' },
        async () => {
          const deleted = await pruneUsage(this.usage);
          this.logger.info({ rows: deleted }, 'old usage hours deleted');
        },
      ),
    );
  }
}
