import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { SessionsRepository } from '@pets/store/sessions.repository';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { QUEUES, type TJobQueue } from '../jobs/job-queue';
import { JOB_QUEUE } from '../jobs/jobs.module';
import { inBatches, runOnSchedule, startInBackground } from '../jobs/scheduled-job';
import { LOGGER } from '../logging/logger';

/**
 * Days an ended session (and its credential) is kept: long enough to answer "who was signed in
 * last week" from the sessions themselves, and past every session's own end (a week at most).
 */
export const SESSION_SWEEP_DAYS = 30;
/** Every day at 04:15 UTC, after the usage's retention. */
export const SESSION_SWEEP_CRON = '15 4 * * *';
/** Sessions deleted per statement: a backlog is worked through in bounded steps. */
const SWEEP_BATCH = 1_000;
const DAY_MS = 86_400_000;

/**
 * Deletes the sessions that ended more than SESSION_SWEEP_DAYS ago, with their credentials, but
 * those whose credential placed an order or wrote a note (sessions.repository.ts SWEEP_ENDED);
 * answers how many.
 */
export const sweepSessions = async (
  sessions: SessionsRepository,
  now: number = Date.now(),
): Promise<number> => {
  const before = new Date(now - SESSION_SWEEP_DAYS * DAY_MS);
  return inBatches(SWEEP_BATCH, (limit) => sessions.sweepEnded(before, limit));
};

/** The daily sweep of ended sessions, in every process that runs the job queue's worker. */
export class SessionSweep implements OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(JOB_QUEUE) private readonly queue: TJobQueue,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    startInBackground(this.logger, 'sweep of ended sessions not scheduled', () =>
      runOnSchedule(
        this.queue,
        QUEUES.sweepSessions,
        { cron: SESSION_SWEEP_CRON, timeZone: 'UTC' },
        async () => {
          const deleted = await sweepSessions(new SessionsRepository(this.pool));
          this.logger.info({ sessions: deleted }, 'ended sessions deleted');
        },
      ),
    );
  }
}
