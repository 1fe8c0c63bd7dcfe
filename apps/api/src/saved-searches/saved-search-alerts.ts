import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { savedSearchInWords } from '@pets/contract/rules';
import { PET_IDS_MAX, type TCategory } from '@pets/contract/schemas';
import { SAVED_SEARCH_ALERT_HOURS } from '@pets/contract/site';
import { CategoriesRepository } from '@pets/store/categories.repository';
import { MailRepository } from '@pets/store/mail.repository';
import { PetsRepository } from '@pets/store/pets.repository';
import { SavedSearchesRepository, type TDueSearch } from '@pets/store/saved-searches.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { LOGGER } from '../logging/logger';
import type { TMailRequest } from '../mail/mail-templates';
import { storedFilterOf } from './saved-searches.service';

/** Searches read per statement. */
const BATCH = 200;
/** Animals one alert lists by name; the rest are counted ("and 3 more"). */
const LISTED = 10;

/**
 * The alerts of saved searches (issue 28): every SAVED_SEARCH_POLL_INTERVAL_MS, in each process
 * with JOBS_WORKER=on, a round reads the animals that became available (created available, or
 * their status changed to available: the `pet.created` and `pet.status_changed` events) since the
 * oldest due search's last alert, and for each confirmed, subscribed search whose last alert is
 * SAVED_SEARCH_ALERT_HOURS old (or that never had one) asks listPets' own filter which of those
 * animals it matches, still available now. A match queues one email listing them and stamps
 * `last_alert_at`, in one transaction that locks the search (SKIP LOCKED: two workers never send
 * the same alert). An animal that matches while a search is not due waits for the next alert:
 * that alert lists every animal since the last one, so nothing is lost and no one gets two emails
 * in a day.
 */
@Injectable()
export class SavedSearchAlerts implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private isStopped = false;
  private isFailing = false;
  private readonly searches: SavedSearchesRepository;
  private readonly categories: CategoriesRepository;

  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(MailRepository) private readonly mail: MailRepository,
    @Inject(PetsRepository) private readonly pets: PetsRepository,
  ) {
    this.searches = new SavedSearchesRepository(pool);
    this.categories = new CategoriesRepository(pool);
  }

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER === 'off') {
      return;
    }
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.round;
  }

  private schedule(): void {
    if (this.isStopped) {
      return;
    }
    this.timer = setTimeout(() => {
      this.round = this.runRound()
        .then(() => {
          this.isFailing = false;
        })
        .catch((error: unknown) => {
          // Once per outage, not once per round.
          if (!this.isFailing) {
            this.isFailing = true;
            this.logger.warn(
              { err: error instanceof Error ? error.message : String(error) },
              'saved search alerts failed; trying again every poll interval',
            );
          }
        })
        .finally(() => this.schedule());
    }, this.config.SAVED_SEARCH_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  /** One round: every due search, a batch at a time. */
  async runRound(): Promise<number> {
    const dueBefore = new Date(Date.now() - SAVED_SEARCH_ALERT_HOURS * 3_600_000);
    let afterId = '0';
    let sent = 0;
    for (;;) {
      const due = await this.searches.due(dueBefore, afterId, BATCH);
      if (due.length === 0) {
        return sent;
      }
      const oldest = new Date(Math.min(...due.map((search) => search.since.getTime())));
      const available = await this.searches.newlyAvailable(oldest, PET_IDS_MAX);
      if (available.length > 0) {
        // Read once a batch, for the searches' names: a store has a handful of categories.
        const categories = await this.categories.list();
        for (const search of due) {
          if (this.isStopped) {
            return sent;
          }
          sent += (await this.alert(search, available, dueBefore, categories)) ? 1 : 0;
        }
      }
      afterId = due[due.length - 1]?.id ?? afterId;
      if (due.length < BATCH) {
        return sent;
      }
    }
  }

  /** Queues the search's alert when a new animal matches it; whether it did. */
  private async alert(
    search: TDueSearch,
    available: readonly { petId: number; at: Date }[],
    dueBefore: Date,
    categories: readonly TCategory[],
  ): Promise<boolean> {
    const ids = available
      .filter((each) => each.at > search.since)
      .map((each) => each.petId)
      .sort((a, b) => b - a);
    const filter = storedFilterOf(search.filter);
    if (ids.length === 0 || !filter) {
      return false;
    }
    const matching = { ...filter, status: 'available' as const, id: ids };
    const page = await this.pets.list({ ...matching, limit: LISTED });
    if (page.items.length === 0) {
      return false;
    }
    const total = page.nextCursor === null ? page.items.length : await this.pets.count(matching);
    return withTransaction(this.pool, async (client) => {
      if (!(await this.searches.lockDue(client, search.id, dueBefore))) {
        return false;
      }
      const alert: TMailRequest = {
        template: 'saved-search-alert',
        to: search.email,
        data: {
          searchId: search.id,
          // The search in words, as the site said it when it was saved: the adopter knows which.
          search: savedSearchInWords(
            filter,
            (id) => categories.find((category) => category.id === id)?.name,
          ),
          pets: page.items.map((pet) => ({ id: pet.id, name: pet.name })),
          more: Math.max(0, total - page.items.length),
        },
      };
      await this.mail.enqueue(client, alert);
      await this.searches.markAlerted(client, search.id);
      return true;
    });
  }
}
