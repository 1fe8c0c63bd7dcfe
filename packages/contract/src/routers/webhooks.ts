import { type ContractNoBodyType, initContract } from '@ts-rest/core';
import { Header } from '../headers';
import { BODY_LIMIT_TEXT } from '../rules/body-limit';
import {
  WEBHOOK_ENDPOINTS_PER_KEY_MAX,
  WEBHOOK_ENDPOINTS_PER_ORGANIZATION_MAX,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_TEST_EVENT_TYPE,
  ZListWebhookDeliveriesQuery,
  ZListWebhookEndpointsQuery,
  ZNewWebhookEndpoint,
  ZUpdateWebhookEndpoint,
  ZWebhookDeliveries,
  ZWebhookDelivery,
  ZWebhookDeliveryParams,
  ZWebhookEndpoint,
  ZWebhookEndpointParams,
  ZWebhookEndpoints,
  ZWebhookEndpointWithSecret,
} from '../schemas/webhook';
import { notModified } from './conditional';
import { errors } from './errors';
import { idempotent } from './idempotent';
import type { TRouteMetadata } from './metadata';

const c = initContract();
const NO_BODY: ContractNoBodyType = c.noBody();

const FORBIDDEN_WRITE = 'The key is read-only (`forbidden`).';
const NOT_FOUND =
  'No webhook endpoint with this id belongs to the key: it does not exist or another key ' +
  'registered it (`not_found`).';
const KEY_IN_USE =
  'Another request with the same `Idempotency-Key` is still in progress ' +
  '(`idempotency_key_in_use`): retry after a moment.';
const URL_RULES =
  'The `url` must be `https` (unless the server allows `http`), without a user name or ' +
  'password; an address that is a loopback, private, link-local or otherwise non-public IP is ' +
  'refused (`400`), and one whose name resolves to such an address, or does not resolve, fails ' +
  'at delivery, each attempt saying "the address is not allowed or not reachable".';
const LIMIT_REACHED =
  `The key has ${WEBHOOK_ENDPOINTS_PER_KEY_MAX} endpoints already, or the keys of its ` +
  `developer organisation ${WEBHOOK_ENDPOINTS_PER_ORGANIZATION_MAX} together ` +
  '(`webhook_endpoint_limit_reached`): delete one first. Or another request with the same ' +
  '`Idempotency-Key` is still in progress (`idempotency_key_in_use`): retry after a moment.';

export const webhooksRouter = c.router({
  listWebhookEndpoints: {
    method: 'GET',
    path: '/webhook-endpoints',
    summary: 'List webhook endpoints',
    description:
      'The webhook endpoints the calling key registered, newest first, at most `limit` of them; ' +
      'further pages as for `GET /v1/pets`. Secrets are never listed.',
    query: ZListWebhookEndpointsQuery,
    responses: { ...notModified, 200: ZWebhookEndpoints, ...errors(400) },
    metadata: { responseHeaders: { 200: [Header.link] } } satisfies TRouteMetadata,
  },
  createWebhookEndpoint: idempotent({
    method: 'POST',
    path: '/webhook-endpoints',
    summary: 'Register a webhook endpoint',
    description:
      'Registers an address to which the API sends the events of the given types that the key ' +
      "may read (those `GET /v1/events` lists for it: every animal's, and its own orders'; " +
      'every order event for a staff key), each `POST`ed as the event, signed per the Standard ' +
      'Webhooks specification with the secret answered here, and only here (and by ' +
      `rotate-secret). ${URL_RULES} A key may register at most ` +
      `${WEBHOOK_ENDPOINTS_PER_KEY_MAX} endpoints, and the keys of a developer organisation ` +
      `${WEBHOOK_ENDPOINTS_PER_ORGANIZATION_MAX} together. The body must be ` +
      `\`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    body: ZNewWebhookEndpoint,
    responses: { 201: ZWebhookEndpointWithSecret, ...errors(400, 403, 409, 413, 415) },
    metadata: {
      testKeys: 'allowed',
      responseHeaders: { 201: [Header.location] },
      responseDescriptions: { 403: FORBIDDEN_WRITE, 409: LIMIT_REACHED },
    } satisfies TRouteMetadata,
  }),
  getWebhookEndpoint: {
    method: 'GET',
    path: '/webhook-endpoints/:endpointId',
    summary: 'Get a webhook endpoint',
    description: "One of the key's webhook endpoints, with its status (without its secret).",
    pathParams: ZWebhookEndpointParams,
    responses: { ...notModified, 200: ZWebhookEndpoint, ...errors(400, 404) },
    metadata: { responseDescriptions: { 404: NOT_FOUND } } satisfies TRouteMetadata,
  },
  updateWebhookEndpoint: {
    method: 'PATCH',
    path: '/webhook-endpoints/:endpointId',
    summary: 'Change a webhook endpoint',
    description:
      'Changes any of `url`, `events`, `description` (`null` clears it) and `status`: ' +
      '`disabled` stops the deliveries, `enabled` starts them again with the events recorded ' +
      'from then on; fields left out keep their value, and `{}` changes nothing (the endpoint ' +
      `is answered as it is). ${URL_RULES} The body must be \`application/json\`, at most ` +
      `${BODY_LIMIT_TEXT}.`,
    pathParams: ZWebhookEndpointParams,
    body: ZUpdateWebhookEndpoint,
    responses: { 200: ZWebhookEndpoint, ...errors(400, 403, 404, 413, 415) },
    metadata: {
      testKeys: 'allowed',
      responseDescriptions: { 403: FORBIDDEN_WRITE, 404: NOT_FOUND },
    } satisfies TRouteMetadata,
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    path: '/webhook-endpoints/:endpointId',
    summary: 'Delete a webhook endpoint',
    description: 'Deletes the endpoint and its deliveries: nothing more is sent to it.',
    pathParams: ZWebhookEndpointParams,
    body: NO_BODY,
    responses: {
      204: NO_BODY,
      // No body is read, but one sent is still checked: too large, or not JSON.
      ...errors(400, 403, 404, 413, 415),
    },
    metadata: {
      testKeys: 'allowed',
      responseDescriptions: { 204: 'Deleted.', 403: FORBIDDEN_WRITE, 404: NOT_FOUND },
    } satisfies TRouteMetadata,
  },
  rotateWebhookSecret: idempotent({
    method: 'POST',
    path: '/webhook-endpoints/:endpointId/rotate-secret',
    summary: "Rotate a webhook endpoint's secret",
    description:
      'Answers the endpoint with a new secret. The previous one keeps signing for ' +
      `${WEBHOOK_SECRET_OVERLAP_HOURS} hours: meanwhile every delivery carries both signatures ` +
      '(space-separated in `webhook-signature`), so the receiver can switch when it likes. No ' +
      'request body.',
    pathParams: ZWebhookEndpointParams,
    body: NO_BODY,
    responses: { 200: ZWebhookEndpointWithSecret, ...errors(400, 403, 404, 413, 415) },
    metadata: {
      testKeys: 'allowed',
      responseDescriptions: { 403: FORBIDDEN_WRITE, 404: NOT_FOUND, 409: KEY_IN_USE },
    } satisfies TRouteMetadata,
  }),
  testWebhookEndpoint: idempotent({
    method: 'POST',
    path: '/webhook-endpoints/:endpointId/test',
    summary: 'Send a test event to a webhook endpoint',
    description:
      `Queues a delivery of a \`${WEBHOOK_TEST_EVENT_TYPE}\` event (its \`data\` names the ` +
      'endpoint), signed and retried like any other, and answers it (`202`): its attempts ' +
      'appear in the deliveries list. Sent even when the endpoint is disabled. No request body.',
    pathParams: ZWebhookEndpointParams,
    body: NO_BODY,
    responses: { 202: ZWebhookDelivery, ...errors(400, 403, 404, 413, 415) },
    metadata: {
      testKeys: 'allowed',
      responseDescriptions: { 403: FORBIDDEN_WRITE, 404: NOT_FOUND, 409: KEY_IN_USE },
    } satisfies TRouteMetadata,
  }),
  listWebhookDeliveries: {
    method: 'GET',
    path: '/webhook-endpoints/:endpointId/deliveries',
    summary: "List a webhook endpoint's deliveries",
    description:
      'The deliveries to the endpoint, newest first, each with every attempt (time, status ' +
      "code, duration, error and the start of the receiver's answer); filter with `status`; " +
      'further pages as for `GET /v1/pets`. Deliveries are kept as long as their events.',
    pathParams: ZWebhookEndpointParams,
    query: ZListWebhookDeliveriesQuery,
    responses: { ...notModified, 200: ZWebhookDeliveries, ...errors(400, 404) },
    metadata: {
      responseHeaders: { 200: [Header.link] },
      responseDescriptions: { 404: NOT_FOUND },
    } satisfies TRouteMetadata,
  },
  retryWebhookDelivery: idempotent({
    method: 'POST',
    path: '/webhook-endpoints/:endpointId/deliveries/:deliveryId/retry',
    summary: 'Retry a webhook delivery',
    description:
      'Sends the delivery again now (`202`), with the retry schedule started afresh if that ' +
      'attempt fails too; a delivery still pending is only brought forward. No request body.',
    pathParams: ZWebhookDeliveryParams,
    body: NO_BODY,
    responses: { 202: ZWebhookDelivery, ...errors(400, 403, 404, 413, 415) },
    metadata: {
      testKeys: 'allowed',
      responseDescriptions: {
        403: FORBIDDEN_WRITE,
        404:
          'No webhook endpoint with this id belongs to the key, or it has no delivery with this ' +
          'id (`not_found`).',
        409: KEY_IN_USE,
      },
    } satisfies TRouteMetadata,
  }),
});
