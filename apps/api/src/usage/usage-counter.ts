import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { TUsageDeltas } from '@pets/store/usage.repository';
import { UsageRepository } from '@pets/store/usage.repository';
import type { Logger } from 'pino';
import { CONFIG } from '../app.tokens';
import type { TConfig } from '../config';
import { LOGGER } from '../logging/logger';

const HOUR_MS = 3_600_000;
/** Past this many key-hour-class counts held back (a long database outage), the oldest hour goes. */
export const USAGE_MAX_ENTRIES = 100_000;
/** A repeated complaint (the database down, counts dropped) is logged at most this often. */
const COMPLAINT_INTERVAL_MS = 60_000;

/** The class a status is counted in: 429 apart from the other 4xx. */
const statusClassOf = (status: number): string => {
  if (status < 300) {
    return '2xx';
  }
  if (status < 400) {
    return '3xx';
  }
  if (status === 429) {
    return '429';
  }
  return status < 500 ? '4xx' : '5xx';
};

/**
 * Counts each key's requests per hour and status class in memory, and adds them to
 * `api_key_usage_hourly` every USAGE_FLUSH_INTERVAL_MS in one statement (and the keys' last use in
 * another), so that a request costs two map writes and no database round trip
 * (docs/decisions.md, "Usage counted in batches"). The rows are added to, never set, so every
 * process flushes into them alike. Counts that a flush could not write (the database down) are
 * kept for the next one, the oldest hour dropped past USAGE_MAX_ENTRIES. Flushed at shutdown, by
 * Nest's shutdown hook (`app.close()`, before main.ts ends the pool); a process killed outright
 * loses at most one interval's counts.
 */
@Injectable()
export class UsageCounter implements OnApplicationBootstrap, OnApplicationShutdown {
  /** `${apiKeyId}|${hourStartMs}|${class}` -> requests. */
  private counts = new Map<string, number>();
  /** apiKeyId (as text) -> the last request's time, epoch ms. */
  private lastUsed = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** When each complaint was last logged. */
  private readonly complainedAt = new Map<string, number>();
  private droppedSinceComplaint = 0;

  constructor(
    @Inject(UsageRepository) private readonly usage: UsageRepository,
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.USAGE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** One answered request of the key `apiKeyId`, at `nowMs` (epoch ms). */
  count(apiKeyId: bigint, status: number, nowMs: number): void {
    const id = String(apiKeyId);
    const entry = `${id}|${nowMs - (nowMs % HOUR_MS)}|${statusClassOf(status)}`;
    this.counts.set(entry, (this.counts.get(entry) ?? 0) + 1);
    this.lastUsed.set(id, nowMs);
  }

  /**
   * Writes what was counted since the last flush; concurrent calls share one flush (then the
   * caller that needs everything, shutdown, flushes again). Never throws: a failure keeps the
   * counts for the next one.
   */
  async flush(): Promise<void> {
    while (this.flushing) {
      await this.flushing;
    }
    if (this.counts.size === 0 && this.lastUsed.size === 0) {
      return;
    }
    this.flushing = this.write().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async write(): Promise<void> {
    const counts = this.counts;
    const lastUsed = this.lastUsed;
    this.counts = new Map();
    this.lastUsed = new Map();
    const deltas: TUsageDeltas = { apiKeyIds: [], hours: [], classes: [], counts: [] };
    for (const [entry, count] of counts) {
      const [id, hour, statusClass] = entry.split('|') as [string, string, string];
      deltas.apiKeyIds.push(id);
      deltas.hours.push(new Date(Number(hour)).toISOString());
      deltas.classes.push(statusClass);
      deltas.counts.push(count);
    }
    try {
      await this.usage.add(deltas);
    } catch (error) {
      this.keep(counts, lastUsed);
      this.complain(error, 'usage counts not written: kept for the next flush');
      return;
    }
    try {
      await this.usage.markUsed({
        apiKeyIds: [...lastUsed.keys()],
        ats: [...lastUsed.values()].map((at) => new Date(at).toISOString()),
      });
    } catch (error) {
      // The counts are written; only the times of last use wait for the next flush.
      this.keep(new Map(), lastUsed);
      this.complain(error, "keys' last use not written: kept for the next flush");
    }
  }

  /** Puts back what a failed flush took, under the counts made meanwhile. */
  private keep(counts: Map<string, number>, lastUsed: Map<string, number>): void {
    for (const [entry, count] of counts) {
      this.counts.set(entry, (this.counts.get(entry) ?? 0) + count);
    }
    for (const [id, at] of lastUsed) {
      if ((this.lastUsed.get(id) ?? 0) < at) {
        this.lastUsed.set(id, at);
      }
    }
    while (this.counts.size > USAGE_MAX_ENTRIES) {
      this.dropOldestHour();
    }
  }

  private dropOldestHour(): void {
    let oldest = Number.POSITIVE_INFINITY;
    for (const entry of this.counts.keys()) {
      const hour = Number(entry.split('|')[1]);
      if (hour < oldest) {
        oldest = hour;
      }
    }
    const suffix = `|${oldest}|`;
    for (const [entry, count] of this.counts) {
      if (entry.includes(suffix)) {
        this.counts.delete(entry);
        this.droppedSinceComplaint += count;
      }
    }
    this.complain(undefined, 'usage_dropped');
  }

  /** Logs each complaint at most once a minute, with how many requests' counts were dropped. */
  private complain(error: unknown, message: string): void {
    const now = Date.now();
    if (
      now - (this.complainedAt.get(message) ?? Number.NEGATIVE_INFINITY) <
      COMPLAINT_INTERVAL_MS
    ) {
      return;
    }
    this.complainedAt.set(message, now);
    this.logger.warn(
      {
        ...(error === undefined
          ? {}
          : { err: error instanceof Error ? error.message : String(error) }),
        pendingEntries: this.counts.size,
        droppedRequests: this.droppedSinceComplaint,
      },
      message,
    );
    this.droppedSinceComplaint = 0;
  }
}
