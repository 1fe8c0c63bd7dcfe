import { Controller } from '@nestjs/common';
import { contract, Header } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { WebhooksService } from './webhooks.service';

const { webhooks } = contract;

/** The webhook endpoints' operations; who may call each (403) is the admission's. */
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @TsRestHandler(webhooks)
  handler(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(webhooks, {
      listWebhookEndpoints: async ({ query }) => {
        const { items, link } = await this.webhooks.list(caller, query);
        if (link) {
          setHeader(Header.link, link);
        }
        return { status: 200, body: items };
      },

      createWebhookEndpoint: async ({ body }) => {
        const endpoint = await this.webhooks.create(caller, body);
        setHeader(Header.location, `${webhooks.listWebhookEndpoints.path}/${endpoint.id}`);
        return { status: 201, body: endpoint };
      },

      getWebhookEndpoint: async ({ params }) => ({
        status: 200,
        body: await this.webhooks.get(caller, params.endpointId),
      }),

      updateWebhookEndpoint: async ({ params, body }) => ({
        status: 200,
        body: await this.webhooks.update(caller, params.endpointId, body),
      }),

      deleteWebhookEndpoint: async ({ params }) => {
        await this.webhooks.delete(caller, params.endpointId);
        return { status: 204, body: undefined };
      },

      rotateWebhookSecret: async ({ params }) => ({
        status: 200,
        body: await this.webhooks.rotateSecret(caller, params.endpointId),
      }),

      testWebhookEndpoint: async ({ params }) => ({
        status: 202,
        body: await this.webhooks.test(caller, params.endpointId),
      }),

      listWebhookDeliveries: async ({ params, query }) => {
        const { items, link } = await this.webhooks.listDeliveries(
          caller,
          params.endpointId,
          query,
        );
        if (link) {
          setHeader(Header.link, link);
        }
        return { status: 200, body: items };
      },

      retryWebhookDelivery: async ({ params }) => ({
        status: 202,
        body: await this.webhooks.retryDelivery(caller, params.endpointId, params.deliveryId),
      }),
    });
  }
}
