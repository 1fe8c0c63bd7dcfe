import { Inject, Injectable } from '@nestjs/common';
import { savedSearchInWords } from '@pets/contract/rules';
import {
  SAVED_SEARCH_CONFIRM_DAYS,
  SAVED_SEARCH_LIMITS,
  type TSavedSearchFilter,
  type TSavedSearchWaiting,
  ZSavedSearchFilter,
} from '@pets/contract/site';
import { CategoriesRepository } from '@pets/store/categories.repository';
import { MailRepository } from '@pets/store/mail.repository';
import { SavedSearchesRepository } from '@pets/store/saved-searches.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';
import { PG_POOL } from '../app.tokens';
import { AppError } from '../core/app-error';
import { SavedSearchLinks, tokenHashOf } from '../links/saved-search-links';
import type { TMailRequest } from '../mail/mail-templates';

const DAY_MS = 86_400_000;

const BAD_LINK = (): AppError =>
  new AppError(
    'invalid_request',
    'This link is not valid: it may have expired. Save the search again to get a new one.',
  );

/** A filter read back from the database: checked again, a row written by an older rule is skipped. */
export const storedFilterOf = (value: unknown): TSavedSearchFilter | undefined => {
  const parsed = ZSavedSearchFilter.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

/**
 * Saved searches (issue 28): save one (unconfirmed, with its confirmation email in the same
 * transaction), confirm it, unsubscribe it, and the staff's counts. The alerts are the worker's
 * (saved-search-alerts.ts).
 */
@Injectable()
export class SavedSearchesService {
  private readonly searches: SavedSearchesRepository;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(MailRepository) private readonly mail: MailRepository,
    @Inject(SavedSearchLinks) private readonly links: SavedSearchLinks,
  ) {
    this.searches = new SavedSearchesRepository(pool);
  }

  /**
   * Saves the search unconfirmed and queues its confirmation email, both or neither. The address
   * may have SAVED_SEARCH_LIMITS.activePerAddress searches that alert, and save
   * newPerAddressPerDay a day (each costs an email to someone who may not have asked): past
   * either, 429, counted under a lock on the address so two requests at once take turns.
   */
  async save(email: string, filter: TSavedSearchFilter): Promise<void> {
    const address = email.trim().toLowerCase();
    const sign = await this.links.signer();
    await withTransaction(this.pool, async (client) => {
      await this.mail.lockRecipient(client, address);
      const counts = await this.searches.countsOf(client, address, new Date(Date.now() - DAY_MS));
      if (counts.active >= SAVED_SEARCH_LIMITS.activePerAddress) {
        throw new AppError(
          'rate_limited',
          `This address already has ${SAVED_SEARCH_LIMITS.activePerAddress} saved searches, the most it may have. Stop one from the link at the foot of its emails to save another.`,
          undefined,
          { 'Retry-After': '86400' },
        );
      }
      if (counts.recent >= SAVED_SEARCH_LIMITS.newPerAddressPerDay) {
        throw new AppError(
          'rate_limited',
          `This address saved ${SAVED_SEARCH_LIMITS.newPerAddressPerDay} searches in the last 24 hours, the most it may. Please try again tomorrow.`,
          undefined,
          { 'Retry-After': '86400' },
        );
      }
      const id = await this.searches.nextId(client);
      await this.searches.insert(client, {
        id,
        email: address,
        filter,
        confirmTokenHash: tokenHashOf(sign('confirm', id)),
        unsubscribeTokenHash: tokenHashOf(sign('unsubscribe', id)),
      });
      const categories = await new CategoriesRepository(client).list();
      const confirmation: TMailRequest = {
        template: 'saved-search-confirm',
        to: address,
        data: {
          searchId: id,
          search: savedSearchInWords(
            filter,
            (categoryId) => categories.find((category) => category.id === categoryId)?.name,
          ),
        },
      };
      await this.mail.enqueue(client, confirmation);
    });
  }

  async confirm(token: string): Promise<{ filter: TSavedSearchFilter }> {
    const filter = await this.searches.confirm(
      tokenHashOf(token),
      new Date(Date.now() - SAVED_SEARCH_CONFIRM_DAYS * DAY_MS),
    );
    const parsed = storedFilterOf(filter);
    if (!parsed) {
      throw BAD_LINK();
    }
    return { filter: parsed };
  }

  async unsubscribe(token: string): Promise<{ filter: TSavedSearchFilter }> {
    const parsed = storedFilterOf(await this.searches.unsubscribe(tokenHashOf(token)));
    if (!parsed) {
      throw BAD_LINK();
    }
    return { filter: parsed };
  }

  async waiting(): Promise<TSavedSearchWaiting> {
    const filters = (await this.searches.waiting()).flatMap(({ filter, searches }) => {
      const parsed = storedFilterOf(filter);
      return parsed ? [{ filter: parsed, searches }] : [];
    });
    return { filters, total: filters.reduce((sum, each) => sum + each.searches, 0) };
  }
}
