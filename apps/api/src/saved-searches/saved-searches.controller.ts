import { Controller } from '@nestjs/common';
import { siteContract } from '@pets/contract/site';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import { SavedSearchesService } from './saved-searches.service';

/**
 * Saved searches (`siteContract.savedSearches`, /internal/saved-searches): visitors save, confirm
 * and unsubscribe through the site; staff read the counts. AdmissionGuard answers 404 to any
 * caller but the site, and 403 to people of other roles.
 */
@Controller()
export class SavedSearchesController {
  constructor(private readonly savedSearches: SavedSearchesService) {}

  @TsRestHandler(siteContract.savedSearches)
  handle() {
    return tsRestHandler(siteContract.savedSearches, {
      saveSearch: async ({ body }) => {
        await this.savedSearches.save(body.email, body.filter);
        return {
          status: 202 as const,
          body: {
            message:
              'Check your email: the alerts start once you confirm them from the link we sent.',
          },
        };
      },
      confirmSearch: async ({ body }) => ({
        status: 200 as const,
        body: await this.savedSearches.confirm(body.token),
      }),
      unsubscribeSearch: async ({ body }) => ({
        status: 200 as const,
        body: await this.savedSearches.unsubscribe(body.token),
      }),
      listWaiting: async () => ({ status: 200 as const, body: await this.savedSearches.waiting() }),
    });
  }
}
