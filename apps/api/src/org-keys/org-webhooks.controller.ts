import { Controller } from '@nestjs/common';
import { siteContract } from '@pets/contract/site';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../api-keys/caller';
import { Caller } from '../http/caller.decorator';
import { WebhooksService } from '../modules/webhooks/webhooks.service';
import { OrgKeysService } from './org-keys.service';

/** The most endpoints and deliveries the portal lists at once. */
const ENDPOINTS_SHOWN = 100;
const DELIVERIES_SHOWN = 50;

/**
 * The webhook endpoints of an organisation's keys (`siteContract.orgWebhooks`), for the developer
 * portal: the same service as `/v1/webhook-endpoints`, with the organisation's key as the caller,
 * so an endpoint added here is the key's, signed and delivered exactly as one added through /v1.
 */
@Controller()
export class OrgWebhooksController {
  constructor(
    private readonly orgKeys: OrgKeysService,
    private readonly webhooks: WebhooksService,
  ) {}

  @TsRestHandler(siteContract.orgWebhooks)
  handle(@Caller() caller: TCaller) {
    return tsRestHandler(siteContract.orgWebhooks, {
      listKeyWebhooks: async ({ params }) => {
        const key = await this.orgKeys.keyAsCaller(caller, params.keyId, 'read');
        const page = await this.webhooks.list(key, { limit: ENDPOINTS_SHOWN });
        return { status: 200 as const, body: { endpoints: page.items } };
      },
      createKeyWebhook: async ({ params, body }) => {
        const key = await this.orgKeys.keyAsCaller(caller, params.keyId, 'write');
        return { status: 201 as const, body: await this.webhooks.create(key, body) };
      },
      testKeyWebhook: async ({ params }) => {
        const key = await this.orgKeys.keyAsCaller(caller, params.keyId, 'read');
        return { status: 202 as const, body: await this.webhooks.test(key, params.endpointId) };
      },
      listKeyWebhookDeliveries: async ({ params }) => {
        const key = await this.orgKeys.keyAsCaller(caller, params.keyId, 'read');
        const page = await this.webhooks.listDeliveries(key, params.endpointId, {
          limit: DELIVERIES_SHOWN,
        });
        return { status: 200 as const, body: { deliveries: page.items } };
      },
    });
  }
}
