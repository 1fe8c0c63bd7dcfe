import type { Logger } from 'pino';
import type { TJobQueue, TQueueName } from './job-queue';

/**
 * What the scheduled jobs share (events' retention, the unconfirmed applications' expiry, the
 * staff digest): started in the background of a process that runs the queue's worker, each a cron
 * job of pg-boss, each working through its rows in bounded batches.
 */

/**
 * Starts `work` without waiting for it (the queue may start later than the module: jobs.module.ts);
 * a failure is logged as `failed` says, since nothing awaits it.
 */
export const startInBackground = (
  logger: Logger,
  failed: string,
  work: () => Promise<unknown>,
): void => {
  void work().catch((error: unknown) =>
    logger.error({ err: error instanceof Error ? error.message : String(error) }, failed),
  );
};

/** Sets `queue`'s cron schedule (every worker process sets the same one) and works its jobs. */
export const runOnSchedule = async (
  queue: TJobQueue,
  name: TQueueName,
  schedule: { cron: string; timeZone: string },
  job: () => Promise<void>,
): Promise<void> => {
  await queue.schedule(name, schedule.cron, schedule.timeZone);
  await queue.work(name, job);
};

/**
 * Runs `step` (one bounded statement over at most `batch` rows, answering how many it handled)
 * until one handles fewer: a backlog is worked through in bounded steps. Answers the total.
 */
export const inBatches = async (
  batch: number,
  step: (limit: number) => Promise<number>,
): Promise<number> => {
  let total = 0;
  for (;;) {
    const handled = await step(batch);
    total += handled;
    if (handled < batch) {
      return total;
    }
  }
};
