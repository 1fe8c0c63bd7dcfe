import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  EVENT_RETENTION_DAYS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
} from '@pets/contract';
import { type TClaimedDelivery, WebhooksRepository } from '@pets/store/webhooks.repository';
import type { Logger } from 'pino';
import { CONFIG } from '../../app.tokens';
import type { TConfig } from '../../config';
import { LOGGER } from '../../logging/logger';
import { sendWebhook } from './webhook-sender';

/**
 * Endpoints this process sends to at once whose last attempt did not fail (or that have had none),
 * one delivery each. An attempt that has not been answered within SLOW_AFTER_MS gives its place
 * back (it goes on, counted among the slow ones), so endpoints that start hanging all at once hold
 * the others back for that long at most.
 */
const SENDERS = 16;
/**
 * Endpoints this process sends to at once whose last attempt failed, and slow attempts: a failing
 * or hanging endpoint (up to WEBHOOK_TIMEOUT_SECONDS an attempt) takes one of these, never one of
 * the SENDERS, however many there are.
 */
const SLOW_SENDERS = 16;
/** How long an attempt counts among the SENDERS: receivers are asked to answer at once. */
const SLOW_AFTER_MS = 2_000;
/**
 * How long a claimed endpoint (and delivery) is another worker's to leave alone: longer than an
 * attempt can take, so only a worker that died mid-attempt loses it, and another sends it then
 * (at least once).
 */
const LEASE_SECONDS = WEBHOOK_TIMEOUT_SECONDS + 20;
/** Test deliveries (no event to go with) are deleted this often, when as old as events get. */
const PRUNE_INTERVAL_MS = 3_600_000;
const PRUNE_BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * When the attempt after `attempt` (1 for the first) is due, or null when the schedule is over:
 * WEBHOOK_RETRY_SCHEDULE_SECONDS, scaled by WEBHOOK_RETRY_SCALE.
 */
export const nextAttemptAt = (attempt: number, scale: number, now = Date.now()): Date | null => {
  const wait = WEBHOOK_RETRY_SCHEDULE_SECONDS[attempt];
  return wait === undefined ? null : new Date(now + wait * scale * 1000);
};

/** An attempt in hand: whether it counts among the slow senders (failing endpoint, or slow). */
type TInFlight = { isSlow: boolean; done: Promise<void> };

/**
 * The webhook worker: a polling loop on the database rather than pg-boss jobs (docs/decisions.md,
 * "Webhooks"). Each round hands new events to deliveries (WebhooksRepository.fanOut), then claims
 * the oldest due delivery of endpoints no process is sending to (the endpoint is leased in the
 * database, so one delivery at a time per endpoint across every process, in order), up to this
 * process's free senders, and sends them, endpoints in parallel; when an attempt ends, the next
 * round starts at once, so an endpoint's backlog flows one delivery after the other. Endpoints
 * whose last attempt failed, and attempts that take long, use their own share of the senders
 * (SLOW_SENDERS), so hanging endpoints cannot hold healthy ones back. Runs in every process with
 * JOBS_WORKER=on. Nothing of it runs on a request.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private isRoundRunning = false;
  private isWakePending = false;
  private isStopped = false;
  private isFailing = false;
  private lastPruneAt = 0;
  private lastFanOutAt = 0;
  /** The attempts in hand, by delivery id. */
  private readonly inFlight = new Map<string, TInFlight>();

  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(WebhooksRepository) private readonly webhooks: WebhooksRepository,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    // The attempts in hand finish (at most WEBHOOK_TIMEOUT_SECONDS); a lease covers the rest.
    await this.round;
    await Promise.all([...this.inFlight.values()].map((attempt) => attempt.done));
  }

  private schedule(delayMs: number): void {
    if (this.isStopped) {
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.isRoundRunning = true;
      this.isWakePending = false;
      this.round = this.runRound()
        .then(() => {
          if (this.isFailing) {
            this.isFailing = false;
            this.logger.info({ event: 'webhook_worker_recovered' }, 'webhook worker running again');
          }
        })
        .catch((error: unknown) => {
          // Once per outage, not once per round: a database down for an hour is one line.
          if (!this.isFailing) {
            this.isFailing = true;
            this.logger.warn(
              {
                event: 'webhook_worker_failing',
                err: error instanceof Error ? error.message : String(error),
              },
              'webhook worker round failed; trying again every poll interval',
            );
          }
        })
        .finally(() => {
          this.isRoundRunning = false;
          this.schedule(
            this.isWakePending && !this.isFailing ? 0 : this.config.WEBHOOK_POLL_INTERVAL_MS,
          );
        });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * An attempt ended (its endpoint may have more) or turned slow (its sender is free): a round
   * now rather than at the next poll.
   */
  private wake(): void {
    if (this.isRoundRunning) {
      this.isWakePending = true;
      return;
    }
    this.schedule(0);
  }

  private async runRound(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPruneAt > PRUNE_INTERVAL_MS) {
      this.lastPruneAt = now;
      await this.webhooks.pruneTestDeliveries(
        new Date(now - EVENT_RETENTION_DAYS * DAY_MS),
        PRUNE_BATCH,
      );
    }
    // New events are looked for once per poll interval; the rounds an ending attempt starts in
    // between only claim (a backlog flows at the speed of claim, send, record).
    if (now - this.lastFanOutAt >= this.config.WEBHOOK_POLL_INTERVAL_MS) {
      this.lastFanOutAt = now;
      await this.webhooks.fanOut();
    }
    if (this.isStopped) {
      return;
    }
    const slow = [...this.inFlight.values()].filter((attempt) => attempt.isSlow).length;
    const claimed = await this.webhooks.claim(
      { good: SENDERS - (this.inFlight.size - slow), failing: SLOW_SENDERS - slow },
      LEASE_SECONDS,
    );
    for (const delivery of claimed) {
      this.start(delivery);
    }
  }

  private start(delivery: TClaimedDelivery): void {
    const entry: TInFlight = { isSlow: delivery.isFailing, done: Promise.resolve() };
    // Still unanswered after SLOW_AFTER_MS: its place among the SENDERS is given back.
    const slowTimer = entry.isSlow
      ? undefined
      : setTimeout(() => {
          entry.isSlow = true;
          this.wake();
        }, SLOW_AFTER_MS);
    slowTimer?.unref();
    entry.done = this.attempt(delivery)
      .catch((error: unknown) => {
        // Not recorded (the database failed meanwhile): the lease runs out and it is sent again.
        this.logger.warn(
          {
            event: 'webhook_attempt_not_recorded',
            delivery: delivery.id,
            err: error instanceof Error ? error.message : String(error),
          },
          'webhook attempt not recorded; it will be retried',
        );
      })
      .finally(() => {
        clearTimeout(slowTimer);
        this.inFlight.delete(delivery.id);
        this.wake();
      });
    this.inFlight.set(delivery.id, entry);
  }

  private async attempt(delivery: TClaimedDelivery): Promise<void> {
    const at = new Date();
    const result = await sendWebhook(delivery, {
      isHttpAllowed: this.config.WEBHOOK_ALLOW_HTTP,
      isPrivateAllowed: this.config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
    });
    const next = result.isSuccess
      ? null
      : nextAttemptAt(delivery.attempt, this.config.WEBHOOK_RETRY_SCALE);
    await this.webhooks.settle(
      delivery,
      { at, ...result },
      {
        isSuccess: result.isSuccess,
        nextAttemptAt: next,
        disableReason:
          `Disabled on ${at.toISOString()}: every delivery failed for the whole retry schedule (the last: ${result.error ?? 'failed'}).`.slice(
            0,
            300,
          ),
      },
    );
    // The delivery, never the secret or the body; why it failed in full (what the owner reads
    // says less: webhook-sender.ts, NOT_REACHABLE).
    this.logger.info(
      {
        event: 'webhook_attempt',
        delivery: delivery.id,
        endpoint: delivery.endpointId,
        attempt: delivery.attempt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        isSuccess: result.isSuccess,
        ...(result.reason === null ? {} : { reason: result.reason }),
      },
      'webhook attempt',
    );
  }
}
