import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { ORDER_CONFIRMATION_HOURS } from '@pets/contract';
import { OrdersRepository } from '@pets/store/orders.repository';
import type { Logger } from 'pino';
import { CONFIG } from '../../app.tokens';
import type { TConfig } from '../../config';
import { QUEUES, type TJobQueue } from '../../jobs/job-queue';
import { JOB_QUEUE } from '../../jobs/jobs.module';
import { inBatches, runOnSchedule, startInBackground } from '../../jobs/scheduled-job';
import { LOGGER } from '../../logging/logger';

/** Every ten minutes: an unconfirmed application lives 24 hours and at most ten minutes more. */
export const EXPIRY_CRON = '*/10 * * * *';
/** Applications cancelled per transaction: a backlog is worked through in bounded steps. */
const EXPIRY_BATCH = 500;
const HOUR_MS = 3_600_000;

/**
 * Cancels the applications left unconfirmed for ORDER_CONFIRMATION_HOURS, oldest first, until
 * none is left; answers how many.
 */
export const expireUnconfirmed = async (
  orders: OrdersRepository,
  now: number = Date.now(),
): Promise<number> => {
  const before = new Date(now - ORDER_CONFIRMATION_HOURS * HOUR_MS);
  return inBatches(EXPIRY_BATCH, (limit) => orders.expireUnconfirmed(before, limit));
};

/**
 * The schedule that cancels applications left unconfirmed (APPLICATION_CONFIRMATION=email), in
 * every process that runs the job queue's worker. Kept whatever the setting: applications left
 * unconfirmed when it is switched off still expire.
 */
export class UnconfirmedExpiry implements OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(JOB_QUEUE) private readonly queue: TJobQueue,
    @Inject(OrdersRepository) private readonly orders: OrdersRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    startInBackground(this.logger, 'expiry of unconfirmed applications not scheduled', () =>
      runOnSchedule(
        this.queue,
        QUEUES.expireUnconfirmed,
        { cron: EXPIRY_CRON, timeZone: 'UTC' },
        async () => {
          const expired = await expireUnconfirmed(this.orders);
          if (expired > 0) {
            this.logger.info({ applications: expired }, 'unconfirmed applications expired');
          }
        },
      ),
    );
  }
}
