import { Controller } from '@nestjs/common';
import { siteContract } from '@pets/contract/site';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import { OrderLinksService } from './order-links.service';

/**
 * An adopter withdrawing their application from its page (`siteContract.applications`,
 * /internal/applications): the store's site calls it with its own key for a visitor who holds the
 * application's private link. AdmissionGuard answers 404 to any other caller.
 */
@Controller()
export class WithdrawalController {
  constructor(private readonly links: OrderLinksService) {}

  @TsRestHandler(siteContract.applications)
  handle() {
    return tsRestHandler(siteContract.applications, {
      withdrawApplication: async ({ body }) => ({
        status: 200 as const,
        body: await this.links.withdrawByLink(body.token),
      }),
    });
  }
}
