import { setTimeout as sleep } from 'node:timers/promises';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  IdempotencyRepository,
  type TIdempotencyScope,
  type TStoredResponse,
} from '@pets/store/idempotency.repository';
import type { Logger } from 'pino';
import { AppError } from '../core/app-error';
import { LOGGER } from '../logging/logger';
import { IDEMPOTENCY_SETTINGS, type TIdempotencySettings } from './idempotency.types';

/** What the first step of an idempotent request decided. */
export type TIdempotencyStart =
  | { kind: 'claimed'; id: string }
  | { kind: 'replay'; response: TStoredResponse };

/** First pause of a retry waiting for the request in progress; doubled up to MAX_POLL_MS. */
const FIRST_POLL_MS = 10;

/** An error in a few words for a log line: never a stack. */
const describe = (error: unknown): string =>
  error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
const MAX_POLL_MS = 200;

/**
 * The rules of Idempotency-Key (docs/decisions.md, "Idempotent requests"), on top of the
 * repository. PostgreSQL decides who runs the operation: the request whose claim inserts the row.
 * A retry with the same request gets the stored response, or waits for the one in progress (up to
 * `waitMs`, then 409); the same key with another request is a 422. Stale rows are deleted by a
 * periodic bounded sweep, never by the request path.
 */
@Injectable()
export class IdempotencyService implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper: NodeJS.Timeout | undefined;
  private isSweeping = false;
  private isShuttingDown = false;
  private readonly pendingReleases = new Set<NodeJS.Timeout>();

  constructor(
    private readonly repository: IdempotencyRepository,
    @Inject(IDEMPOTENCY_SETTINGS) private readonly settings: TIdempotencySettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Claims the key for this request, or finds what a retry gets: the stored response (same
   * request), a 422 (another request), or, while the first is in progress, a wait and then a 409.
   */
  async start(scope: TIdempotencyScope, requestHash: string): Promise<TIdempotencyStart> {
    const deadline = performance.now() + this.settings.waitMs;
    let pause = FIRST_POLL_MS;
    for (;;) {
      const now = this.settings.now();
      const id = await this.repository
        .claim(scope, requestHash, new Date(now), new Date(now + this.settings.leaseMs))
        .catch((error: unknown) => {
          // The claim may have been committed all the same (a frozen server runs it once
          // resumed): give it back as soon as the database answers, not after the lease.
          this.releaseUntilDone(
            'claim',
            () => this.repository.releaseClaim(scope, new Date(now)),
            2,
          );
          throw error;
        });
      if (id !== null) {
        return { kind: 'claimed', id };
      }
      const entry = await this.repository.find(scope);
      // Gone (released after a failure, or swept) or expired since the claim: claim it again.
      const isLive = entry !== null && entry.expiresAt.getTime() > this.settings.now();
      if (isLive && entry.requestHash !== requestHash) {
        throw new AppError(
          'idempotency_key_reused',
          `This Idempotency-Key was already used for a different request to ${scope.operation}; send a new key with a new request.`,
        );
      }
      if (isLive && entry.response) {
        return { kind: 'replay', response: entry.response };
      }
      if (performance.now() >= deadline) {
        throw new AppError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still in progress; retry in a moment to get its response.',
        );
      }
      if (isLive) {
        await sleep(pause);
        pause = Math.min(pause * 2, MAX_POLL_MS);
      }
    }
  }

  /** Stores the response of a claimed request for the replay window. */
  async complete(id: string, response: TStoredResponse): Promise<void> {
    try {
      await this.repository.complete(
        id,
        response,
        new Date(this.settings.now() + this.settings.ttlMs),
      );
    } catch (error) {
      // The operation's own answer still goes out. The row stays in progress until its lease
      // ends; a retry after that runs the operation again (docs/decisions.md says when).
      this.logger.error(
        { event: 'idempotency_store_failed', err: error },
        'idempotency: response not stored',
      );
    }
  }

  /** Frees the key after a failure that is not stored, so that a retry can run the operation. */
  async release(id: string): Promise<void> {
    try {
      await this.repository.release(id);
    } catch {
      this.releaseUntilDone('release', () => this.repository.release(id), 1);
    }
  }

  /**
   * Retries giving a key back, every `releaseRetryMs`, until it has succeeded `times` times in a
   * row or the lease is over (which ends the claim anyway): a key left claimed by a database fault
   * is free again within about `releaseRetryMs` of the database answering. One warning when a
   * release fails, one info line when it succeeds later. Claims are given back twice: the first
   * delete may run just before a resumed server commits the claim that had timed out.
   */
  private releaseUntilDone(what: string, work: () => Promise<void>, times: number): void {
    const giveUpAt = performance.now() + this.settings.leaseMs;
    let failures = 0;
    let successes = 0;
    const attempt = () => {
      this.pendingReleases.delete(timer);
      work().then(
        () => {
          successes += 1;
          if (successes >= times) {
            if (failures > 0) {
              this.logger.info(
                { event: 'idempotency_released_on_recovery', what, failures },
                'idempotency: key released once the database answered',
              );
            }
            return;
          }
          schedule();
        },
        (error: unknown) => {
          successes = 0;
          failures += 1;
          if (failures === 1) {
            this.logger.warn(
              { event: 'idempotency_release_failed', what, error: describe(error) },
              'idempotency: key not released yet; retrying until the database answers',
            );
          }
          if (performance.now() < giveUpAt && !this.isShuttingDown) {
            schedule();
          }
        },
      );
    };
    let timer: NodeJS.Timeout;
    const schedule = () => {
      timer = setTimeout(attempt, this.settings.releaseRetryMs);
      timer.unref();
      this.pendingReleases.add(timer);
    };
    if (what === 'release') {
      // The release itself just failed: its failure is the first.
      failures = 1;
      this.logger.warn(
        { event: 'idempotency_release_failed', what },
        'idempotency: key not released yet; retrying until the database answers',
      );
      schedule();
      return;
    }
    schedule();
  }

  /**
   * Deletes expired entries in batches of `sweepBatchSize`, at most `sweepMaxBatches` of them:
   * each batch reads the oldest expired rows from the expiry index, so a sweep never scans the
   * table and stays short however large the backlog (the next sweep continues). Every API process
   * sweeps; concurrent sweeps skip each other's rows.
   */
  async sweep(): Promise<number> {
    if (this.isSweeping) {
      return 0;
    }
    this.isSweeping = true;
    let deleted = 0;
    try {
      for (let batch = 0; batch < this.settings.sweepMaxBatches; batch++) {
        const count = await this.repository.sweep(
          new Date(this.settings.now()),
          this.settings.sweepBatchSize,
        );
        deleted += count;
        if (count < this.settings.sweepBatchSize) {
          break;
        }
      }
    } catch (error) {
      this.logger.warn(
        { event: 'idempotency_sweep_failed', err: error },
        'idempotency: sweep failed',
      );
    } finally {
      this.isSweeping = false;
    }
    return deleted;
  }

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => {
      void this.sweep();
    }, this.settings.sweepIntervalMs);
    // A timer must not keep a closing process alive.
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    // Keys still to give back: their leases end them.
    this.isShuttingDown = true;
    for (const timer of this.pendingReleases) {
      clearTimeout(timer);
    }
    this.pendingReleases.clear();
  }
}
