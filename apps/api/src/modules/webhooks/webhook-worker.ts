import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { WEBHOOK_RETRY_SCHEDULE_SECONDS, WEBHOOK_TIMEOUT_SECONDS } from '@pets/contract';
import { type TClaimedDelivery, WebhooksRepository } from '@pets/store/webhooks.repository';
import type { Logger } from 'pino';
import { CONFIG } from '../../app.tokens';
import type { TConfig } from '../../config';
import { LOGGER } from '../../logging/logger';
import { sendWebhook } from './webhook-sender';

/** Deliveries claimed per round; a full round is followed by another at once. */
const CLAIM_BATCH = 20;
/**
 * How long a claimed delivery is another worker's to leave alone: longer than an attempt can
 * take, so only a worker that died mid-attempt loses it, and another sends it then (at least once).
 */
const LEASE_SECONDS = WEBHOOK_TIMEOUT_SECONDS + 20;

/**
 * When the attempt after `attempt` (1 for the first) is due, or null when the schedule is over:
 * WEBHOOK_RETRY_SCHEDULE_SECONDS, scaled by WEBHOOK_RETRY_SCALE.
 */
export const nextAttemptAt = (attempt: number, scale: number, now = Date.now()): Date | null => {
  const wait = WEBHOOK_RETRY_SCHEDULE_SECONDS[attempt];
  return wait === undefined ? null : new Date(now + wait * scale * 1000);
};

/**
 * The webhook worker: a polling loop on the database rather than pg-boss jobs (docs/decisions.md,
 * "Webhooks"). Each round hands new events to deliveries (WebhooksRepository.fanOut), then claims
 * the due deliveries, sends each endpoint's in id order (endpoints in parallel) and records every
 * attempt. Runs in every process with JOBS_WORKER=on; the database's row locks keep two of them
 * from fanning out or sending the same delivery at once. Nothing of it runs on a request.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private isStopped = false;
  private isFailing = false;

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
  }

  private schedule(delayMs: number): void {
    if (this.isStopped) {
      return;
    }
    this.timer = setTimeout(() => {
      this.round = this.runRound()
        .then((isFull) => {
          if (this.isFailing) {
            this.isFailing = false;
            this.logger.info({ event: 'webhook_worker_recovered' }, 'webhook worker running again');
          }
          this.schedule(isFull ? 0 : this.config.WEBHOOK_POLL_INTERVAL_MS);
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
          this.schedule(this.config.WEBHOOK_POLL_INTERVAL_MS);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** One round; answers whether it claimed a full batch (more may be due). */
  private async runRound(): Promise<boolean> {
    await this.webhooks.fanOut();
    if (this.isStopped) {
      return false;
    }
    const claimed = await this.webhooks.claim(CLAIM_BATCH, LEASE_SECONDS);
    const byEndpoint = new Map<string, TClaimedDelivery[]>();
    for (const delivery of claimed) {
      const list = byEndpoint.get(delivery.endpointId) ?? [];
      list.push(delivery);
      byEndpoint.set(delivery.endpointId, list);
    }
    await Promise.all(
      [...byEndpoint.values()].map(async (deliveries) => {
        for (const delivery of deliveries) {
          await this.attempt(delivery);
        }
      }),
    );
    return claimed.length === CLAIM_BATCH;
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
    // The delivery, never the secret or the body.
    this.logger.info(
      {
        event: 'webhook_attempt',
        delivery: delivery.id,
        endpoint: delivery.endpointId,
        attempt: delivery.attempt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        isSuccess: result.isSuccess,
      },
      'webhook attempt',
    );
  }
}
