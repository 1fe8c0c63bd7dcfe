import { type BeforeApplicationShutdown, Controller, Get, Inject } from '@nestjs/common';
import type { Pool } from 'pg';
import { Access } from '../../admission/route';
import { CONFIG, PG_POOL } from '../../app.tokens';
import type { TConfig } from '../../config';
import { serviceUnavailable } from '../../http/database-faults';
import { HEALTH_PATH, READINESS_PATH } from '../../http/routes';
import { RATE_LIMIT_STORE, type TRateLimitStore } from '../../rate-limit/rate-limit.types';
import { checkDatabase, checkRateLimits, type TReadiness } from './readiness';

/**
 * Probes for orchestrators and load balancers, outside /v1: no key, no rate limit, never cached.
 * `/healthz` answers while the process runs; `/readyz` while it can serve requests.
 */
@Controller()
export class HealthController implements BeforeApplicationShutdown {
  private isShuttingDown = false;

  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(RATE_LIMIT_STORE) private readonly rateLimitStore: TRateLimitStore,
  ) {}

  /** Liveness: the process is up and its event loop answers. Touches no dependency. */
  @Access('public')
  @Get(HEALTH_PATH)
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: 200 `ok` when the database answers and the rate limits are shared as configured;
   * 200 `degraded` when only Redis is unreachable (requests are still served, with per-process
   * limits); 503 with the error body when the database does not answer or shutdown has begun.
   */
  @Access('public')
  @Get(READINESS_PATH)
  async ready(): Promise<TReadiness> {
    if (this.isShuttingDown) {
      throw serviceUnavailable('Not ready: the API is shutting down.');
    }
    const database = await checkDatabase(this.pool);
    if (database.status !== 'ok') {
      throw serviceUnavailable(`Not ready: ${database.reason}.`);
    }
    const rateLimits = checkRateLimits(this.rateLimitStore, this.config.REDIS_URL !== undefined);
    return {
      status: rateLimits.status === 'degraded' ? 'degraded' : 'ok',
      checks: { database, rateLimits },
    };
  }

  /** Runs as soon as shutdown begins, while in-flight requests still finish. */
  beforeApplicationShutdown(): void {
    this.isShuttingDown = true;
  }
}
