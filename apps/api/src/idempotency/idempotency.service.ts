import { setTimeout as sleep } from 'node:timers/promises';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { AppError } from '../http/app-error';
import { LOGGER } from '../logging/logger';
import {
  IdempotencyRepository,
  type TIdempotencyScope,
  type TStoredResponse,
} from './idempotency.repository';
import { IDEMPOTENCY_SETTINGS, type TIdempotencySettings } from './idempotency.types';

/** What the first step of an idempotent request decided. */
export type TIdempotencyStart =
  | { kind: 'claimed'; id: string }
  | { kind: 'replay'; response: TStoredResponse };

/** First pause of a retry waiting for the request in progress; doubled up to MAX_POLL_MS. */
const FIRST_POLL_MS = 10;
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
      const id = await this.repository.claim(
        scope,
        requestHash,
        new Date(now),
        new Date(now + this.settings.leaseMs),
      );
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
    } catch (error) {
      // The lease ends the claim anyway.
      this.logger.warn(
        { event: 'idempotency_release_failed', err: error },
        'idempotency: key not released',
      );
    }
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
  }
}
