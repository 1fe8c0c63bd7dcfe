import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_RETENTION_DAYS } from '@pets/contract';
import { EventsRepository } from '@pets/store/events.repository';
import type { Logger } from 'pino';
import { CONFIG } from '../../app.tokens';
import type { TConfig } from '../../config';
import { QUEUES, type TJobQueue } from '../../jobs/job-queue';
import { JOB_QUEUE } from '../../jobs/jobs.module';
import { inBatches, runOnSchedule, startInBackground } from '../../jobs/scheduled-job';
import { LOGGER } from '../../logging/logger';

/** Every day at 03:30 UTC, a quiet hour for most stores. */
export const RETENTION_CRON = '30 3 * * *';
/** Events deleted per statement: a backlog is worked through in bounded steps. */
const PRUNE_BATCH = 5_000;
const DAY_MS = 86_400_000;

/** Deletes the events older than EVENT_RETENTION_DAYS, until none is left; answers how many. */
export const pruneEvents = async (
  events: EventsRepository,
  now: number = Date.now(),
): Promise<number> => {
  const before = new Date(now - EVENT_RETENTION_DAYS * DAY_MS);
  return inBatches(PRUNE_BATCH, (limit) => events.prune(before, limit));
};

/** The daily deletion of old events, in every process that runs the job queue's worker. */
export class EventRetention implements OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(JOB_QUEUE) private readonly queue: TJobQueue,
    @Inject(EventsRepository) private readonly events: EventsRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    startInBackground(this.logger, 'deletion of old events not scheduled', () =>
      runOnSchedule(
        this.queue,
        QUEUES.pruneEvents,
        { cron: RETENTION_CRON, timeZone: 'UTC' },
        async () => {
          const deleted = await pruneEvents(this.events);
          this.logger.info({ events: deleted }, 'old events deleted');
        },
      ),
    );
  }
}
