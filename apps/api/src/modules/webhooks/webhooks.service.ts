import { Inject, Injectable } from '@nestjs/common';
import {
  contract,
  prefixedNumberOf,
  type TListWebhookDeliveriesQuery,
  type TListWebhookEndpointsQuery,
  type TNewWebhookEndpoint,
  type TPage,
  type TUpdateWebhookEndpoint,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  type TWebhookEndpointWithSecret,
  WEBHOOK_DELIVERIES_CURSOR,
  WEBHOOK_DELIVERY_ID_PATTERN,
  WEBHOOK_ENDPOINT_ID_PATTERN,
  WEBHOOK_ENDPOINTS_CURSOR,
  WEBHOOK_ENDPOINTS_PER_KEY_MAX,
  WEBHOOK_ENDPOINTS_PER_ORGANIZATION_MAX,
} from '@pets/contract';
import { WebhooksRepository } from '@pets/store/webhooks.repository';
import type { TCaller } from '../../api-keys/caller';
import { CONFIG } from '../../app.tokens';
import type { TConfig } from '../../config';
import { AppError, invalidRequest } from '../../core/app-error';
import { listPage, type TListPage } from '../../http/pagination';
import { urlProblem } from './webhook-sender';

/** Who the endpoints belong to: a key (the caller of /v1, or an organisation's key in the portal). */
export type TWebhooksCaller = Pick<TCaller, 'apiKeyId'>;

const notFound = (id: string): AppError =>
  new AppError('not_found', `No webhook endpoint ${id} belongs to this key.`);

/**
 * A key's webhook endpoints: each belongs to the key that registered it (another key's is a
 * 404, as if it did not exist), and receives only the events that key may read. Read-only keys
 * are refused every write by the admission (the contract's routes).
 */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(CONFIG) private readonly config: TConfig,
    @Inject(WebhooksRepository) private readonly webhooks: WebhooksRepository,
  ) {}

  private checkUrl(url: string): void {
    const problem = urlProblem(url, {
      isHttpAllowed: this.config.WEBHOOK_ALLOW_HTTP,
      isPrivateAllowed: this.config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
    });
    if (problem !== undefined) {
      throw invalidRequest('body.url', problem);
    }
  }

  private endpointNumber(id: string): bigint {
    const number = prefixedNumberOf(WEBHOOK_ENDPOINT_ID_PATTERN, id);
    if (number === undefined) {
      throw notFound(id);
    }
    return number;
  }

  async create(
    caller: TWebhooksCaller,
    input: TNewWebhookEndpoint,
  ): Promise<TWebhookEndpointWithSecret> {
    this.checkUrl(input.url);
    const created = await this.webhooks.create(
      caller.apiKeyId,
      {
        url: input.url,
        eventTypes: [...new Set(input.events)],
        description: input.description ?? null,
      },
      {
        perKey: WEBHOOK_ENDPOINTS_PER_KEY_MAX,
        perOrganization: WEBHOOK_ENDPOINTS_PER_ORGANIZATION_MAX,
      },
    );
    if ('refused' in created) {
      throw new AppError(
        'webhook_endpoint_limit_reached',
        created.refused === 'key'
          ? `This key has ${WEBHOOK_ENDPOINTS_PER_KEY_MAX} webhook endpoints, the most a key may have: delete one it no longer needs first.`
          : `The keys of your organisation have ${WEBHOOK_ENDPOINTS_PER_ORGANIZATION_MAX} webhook endpoints together, the most an organisation may have: delete one it no longer needs first.`,
      );
    }
    return created.endpoint;
  }

  list(
    caller: TWebhooksCaller,
    query: TListWebhookEndpointsQuery,
  ): Promise<TListPage<TPage<TWebhookEndpoint>>> {
    return listPage(
      WEBHOOK_ENDPOINTS_CURSOR,
      contract.webhooks.listWebhookEndpoints.path,
      query,
      (filters, before) => this.webhooks.list(caller.apiKeyId, { limit: filters.limit, before }),
    );
  }

  async get(caller: TWebhooksCaller, id: string): Promise<TWebhookEndpoint> {
    const endpoint = await this.webhooks.get(caller.apiKeyId, this.endpointNumber(id));
    if (!endpoint) {
      throw notFound(id);
    }
    return endpoint;
  }

  async update(
    caller: TWebhooksCaller,
    id: string,
    change: TUpdateWebhookEndpoint,
  ): Promise<TWebhookEndpoint> {
    // A change of nothing writes nothing: the endpoint as it is, its updatedAt unmoved.
    if (Object.values(change).every((value) => value === undefined)) {
      return this.get(caller, id);
    }
    if (change.url !== undefined) {
      this.checkUrl(change.url);
    }
    const endpoint = await this.webhooks.update(caller.apiKeyId, this.endpointNumber(id), {
      url: change.url,
      eventTypes: change.events === undefined ? undefined : [...new Set(change.events)],
      description: change.description,
      status: change.status,
    });
    if (!endpoint) {
      throw notFound(id);
    }
    return endpoint;
  }

  async delete(caller: TWebhooksCaller, id: string): Promise<void> {
    if (!(await this.webhooks.delete(caller.apiKeyId, this.endpointNumber(id)))) {
      throw notFound(id);
    }
  }

  async rotateSecret(caller: TWebhooksCaller, id: string): Promise<TWebhookEndpointWithSecret> {
    const endpoint = await this.webhooks.rotateSecret(caller.apiKeyId, this.endpointNumber(id));
    if (!endpoint) {
      throw notFound(id);
    }
    return endpoint;
  }

  async test(caller: TWebhooksCaller, id: string): Promise<TWebhookDelivery> {
    const number = this.endpointNumber(id);
    await this.get(caller, id);
    return this.webhooks.createTestDelivery(number);
  }

  async listDeliveries(
    caller: TWebhooksCaller,
    id: string,
    query: TListWebhookDeliveriesQuery,
  ): Promise<TListPage<TPage<TWebhookDelivery>>> {
    const number = this.endpointNumber(id);
    await this.get(caller, id);
    return listPage(
      WEBHOOK_DELIVERIES_CURSOR,
      contract.webhooks.listWebhookDeliveries.path.replace(':endpointId', id),
      query,
      (filters, before) =>
        this.webhooks.listDeliveries(number, {
          status: filters.status,
          limit: filters.limit,
          before,
        }),
    );
  }

  async retryDelivery(
    caller: TWebhooksCaller,
    id: string,
    deliveryId: string,
  ): Promise<TWebhookDelivery> {
    const number = this.endpointNumber(id);
    await this.get(caller, id);
    const deliveryNumber = prefixedNumberOf(WEBHOOK_DELIVERY_ID_PATTERN, deliveryId);
    const delivery =
      deliveryNumber === undefined
        ? null
        : await this.webhooks.retryDelivery(number, deliveryNumber);
    if (!delivery) {
      throw new AppError('not_found', `Webhook endpoint ${id} has no delivery ${deliveryId}.`);
    }
    return delivery;
  }
}
