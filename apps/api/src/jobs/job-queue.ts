import { createHash } from 'node:crypto';
import type { TQueryable } from '@pets/db';
import type { Pool } from 'pg';
import { type JobResult, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';

/**
 * The job queue: pg-boss on the API's own PostgreSQL (its schema `pgboss`, created and migrated by
 * `start()`; the embedded default too). Work that leaves a request (email) is queued with
 * `send(client, ...)` on the request's transaction, so it exists exactly when the change it
 * reports was committed. pg-boss rather than graphile-worker: a worker that dies mid-job stops its
 * heartbeat and the job is retried within MAIL_RECOVERY_SECONDS, where graphile-worker keeps a
 * crashed worker's job locked for four hours (docs/decisions.md, "Email").
 */

/** Every queue, with how its jobs are retried. */
export const QUEUES = {
  /** One email of the outbox (`mail_messages.id`). */
  mail: 'mail.send',
  /** The staff's digest of new applications (STAFF_DIGEST=daily), on a schedule. */
  staffDigest: 'mail.staff-digest',
  /** Cancels the applications left unconfirmed (APPLICATION_CONFIRMATION), on a schedule. */
  expireUnconfirmed: 'orders.expire-unconfirmed',
  /** Deletes the events older than EVENT_RETENTION_DAYS, on a schedule. */
  pruneEvents: 'events.prune',
  /** Deletes the usage hours older than 35 days, on a schedule. */
  pruneUsage: 'usage.prune',
  /** Deletes the sessions that ended more than 30 days ago, on a schedule. */
  sweepSessions: 'sessions.sweep',
} as const;
export type TQueueName = (typeof QUEUES)[keyof typeof QUEUES];

export type TMailJob = { mailId: string };

/**
 * How long a message whose worker was killed mid-send (or that waited in that worker's batch)
 * waits at most before another process sends it, as docs/operations.md promises and
 * mail.crash.test.ts checks: its heartbeat lapses (HEARTBEAT_SECONDS, pg-boss's least; refreshed
 * every half of it), a supervisor finds it (SUPERVISE_SECONDS), its retry is due (MAIL_RETRY_DELAY
 * seconds, twice that at most: pg-boss's back-off with jitter) and the next poll takes it (1 s):
 * 10 + 5 + 10 + 1 = 26 s at worst.
 */
export const MAIL_RECOVERY_SECONDS = 30;
const HEARTBEAT_SECONDS = 10;
/**
 * How often a process's supervisor looks for jobs whose worker died. pg-boss does it in its
 * "monitor" step, every 60 s by default: a killed worker's message then waited 50 to 80 s.
 */
const SUPERVISE_SECONDS = 5;
const MAIL_RETRY_DELAY = 5;

/**
 * Retries: 5 to 10 s later, then doubling, at most an hour apart, for 21 attempts (about 13 hours),
 * so a mail server down for a night still gets the message. A job whose worker stops sending
 * heartbeats (a killed process) is failed and retried the same way (MAIL_RECOVERY_SECONDS).
 */
const MAIL_QUEUE_OPTIONS = {
  retryLimit: 21,
  retryDelay: MAIL_RETRY_DELAY,
  retryBackoff: true,
  retryDelayMax: 3600,
  expireInSeconds: 300,
  heartbeatSeconds: HEARTBEAT_SECONDS,
};

/** A digest that fails is tried again a few times; the next day's covers what it would have. */
const DIGEST_QUEUE_OPTIONS = { retryLimit: 5, retryDelay: 60, retryBackoff: true };

/** The next occurrence does what a failed one would have: no retries to pile up. */
const EXPIRY_QUEUE_OPTIONS = { retryLimit: 0 };

const QUEUE_OPTIONS: Record<TQueueName, object> = {
  [QUEUES.mail]: MAIL_QUEUE_OPTIONS,
  [QUEUES.staffDigest]: DIGEST_QUEUE_OPTIONS,
  [QUEUES.expireUnconfirmed]: EXPIRY_QUEUE_OPTIONS,
  [QUEUES.pruneEvents]: EXPIRY_QUEUE_OPTIONS,
  [QUEUES.pruneUsage]: EXPIRY_QUEUE_OPTIONS,
  [QUEUES.sweepSessions]: EXPIRY_QUEUE_OPTIONS,
};

export type TJobQueueOptions = {
  /** The API's pool: the queue's own statements are few (a poll a second while working). */
  pool: Pool;
  logger: Logger;
  /** The embedded database: no maintenance that PGlite cannot do (concurrent reindexing). */
  isEmbedded: boolean;
};

export type TJobQueue = {
  /**
   * Creates or updates the queue's schema and queues, and starts its supervisor. Until it has
   * succeeded once on a database, `send` fails there (the request's transaction with it: a 503,
   * nothing half done).
   */
  start: () => Promise<void>;
  /**
   * Queues jobs on `client`'s transaction, all in one statement: committed with it, or never.
   * Before the queue has started (a database that did not answer at start), waits for it a
   * moment, then throws JobQueueNotReadyError: the request's transaction is rolled back and it is
   * answered 503.
   */
  send: (client: TQueryable, queue: TQueueName, jobs: readonly TMailJob[]) => Promise<void>;
  /**
   * Runs `handle` for each job of `queue` in this process until stop(), once started: a job whose
   * `handle` throws is retried with the queue's back-off, the others of its batch are not.
   */
  work: (queue: TQueueName, handle: (data: TMailJob) => Promise<void>) => Promise<void>;
  /**
   * Sends a job to `queue` on the cron expression `cron` in time zone `timeZone`, once the queue
   * has started (every process may call it: pg-boss keeps one schedule per queue and sends one
   * job per occurrence; one missed while no process ran is sent once).
   */
  schedule: (queue: TQueueName, cron: string, timeZone: string) => Promise<void>;
  /** Stops sending `queue`'s scheduled jobs, once started. */
  unschedule: (queue: TQueueName) => Promise<void>;
  /** Lets the job in hand finish (up to 10 s) and starts no other. */
  stop: () => Promise<void>;
};

/**
 * The queue has not started yet. Carries PostgreSQL's "cannot connect now" code, so that the
 * request is answered as for a database still starting (http/database-faults.ts): 503, retry.
 */
export class JobQueueNotReadyError extends Error {
  readonly code = '57P03';

  constructor() {
    super('the job queue has not started yet');
  }
}

/**
 * Jobs fetched (and settled) in one statement each: fewer round trips per message. Sent one after
 * the other, so five messages at the SMTP transport's worst (10 s to connect, 10 s for the
 * greeting, 30 s of silence) still end within the jobs' expireInSeconds (300).
 */
const WORK_BATCH_SIZE = 5;

/**
 * A name for each statement of pg-boss that a request sends (its job insert, ~3 KB of SQL), so
 * that PostgreSQL parses and plans it once per connection instead of once per order: a two-job
 * insert took 1.3 ms unnamed and 0.6 ms named (measured alone), most of it PostgreSQL's CPU.
 * Named by the text's hash, so a new pg-boss statement gets a new name.
 */
const statementNames = new Map<string, string>();
const statementNameOf = (text: string): string => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `pgboss_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
};

/** How long a request waits for a queue that is still starting. */
const START_WAIT_MS = 2_000;

export const createJobQueue = ({ pool, logger, isEmbedded }: TJobQueueOptions): TJobQueue => {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values as unknown[]) },
    // A killed worker's job is found by another process's supervisor this often: the monitor
    // step (which fails jobs whose heartbeat lapsed) runs at most every monitorIntervalSeconds.
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS,
    ...(isEmbedded ? { reindex: false, monitorVacuum: false } : {}),
  });
  boss.on('error', (error: Error) => logger.warn({ err: error.message }, 'job queue error'));
  let isBossStarted = false;
  let isStarted = false;
  let isStopped = false;
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  return {
    start: async () => {
      if (isStarted) {
        return;
      }
      if (!isBossStarted) {
        await boss.start();
        isBossStarted = true;
      }
      for (const [queue, options] of Object.entries(QUEUE_OPTIONS)) {
        await boss.createQueue(queue, options);
        // An existing queue keeps its old options otherwise.
        await boss.updateQueue(queue, options);
      }
      isStarted = true;
      markStarted();
    },
    send: async (client, queue, jobs) => {
      if (!isStarted) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          started,
          new Promise((resolve) => {
            timer = setTimeout(resolve, START_WAIT_MS);
          }),
        ]);
        clearTimeout(timer);
        if (!isStarted || isStopped) {
          throw new JobQueueNotReadyError();
        }
      }
      // insert() rather than send() per job: one statement for the batch, each job with the
      // queue's retry options (the statement reads them from the queue's row, as send() does).
      await boss.insert(
        queue,
        jobs.map((data) => ({ data })),
        {
          db: {
            // Unnamed on the embedded database: its one session is every client's
            // (packages/db/src/pglite-server.ts), while `pg` remembers per client which names it
            // has prepared, so a second client would prepare an existing name and fail.
            executeSql: isEmbedded
              ? (text, values) => client.query(text, values as unknown[])
              : (text, values) =>
                  client.query({ name: statementNameOf(text), text, values: values as unknown[] }),
          },
        },
      );
    },
    work: async (queue, handle) => {
      await started;
      if (isStopped) {
        return;
      }
      await boss.work<TMailJob>(
        queue,
        {
          batchSize: WORK_BATCH_SIZE,
          // While fetches come back full, the next one follows at once: one job a second (the
          // poll) was the most a backlog drained at, two orders' email a second.
          burstWhenBatchFull: true,
          pollingIntervalSeconds: 1,
          perJobResults: true,
        },
        async (jobs) => {
          // One after the other, in the order they were written (the outbox's ids grow; the
          // fetch's RETURNING promises no order): an adopter hears of an application's changes
          // in the order they happened.
          // (A scheduled job, the digest's, has no id: it sorts first.)
          const idOf = (data: Partial<TMailJob> | null) => data?.mailId ?? '';
          const inOrder = [...jobs].sort(
            (first, second) =>
              idOf(first.data).length - idOf(second.data).length ||
              idOf(first.data).localeCompare(idOf(second.data)),
          );
          const results: JobResult[] = [];
          for (const { id, data, signal } of inOrder) {
            if (signal.aborted) {
              // pg-boss gave up the batch (a stop that outlasted its wait, or a lost claim): the
              // rest is retried, by this process or another, and not sent here as well.
              results.push({
                id,
                status: 'failed',
                output: { message: 'not sent: worker stopped' },
              });
              continue;
            }
            try {
              await handle(data);
              results.push({ id, status: 'completed' });
            } catch (error) {
              results.push({
                id,
                status: 'failed',
                output: { message: error instanceof Error ? error.message : String(error) },
              });
            }
          }
          return results;
        },
      );
    },
    schedule: async (queue, cron, timeZone) => {
      await started;
      if (!isStopped) {
        await boss.schedule(queue, cron, null, { tz: timeZone, missed: 'once' });
      }
    },
    unschedule: async (queue) => {
      await started;
      if (!isStopped) {
        await boss.unschedule(queue);
      }
    },
    stop: async () => {
      isStopped = true;
      markStarted();
      if (isBossStarted) {
        await boss.stop({ graceful: true, timeout: 10_000 });
      }
    },
  };
};
