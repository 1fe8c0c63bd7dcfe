import { type AppRoute, isAppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, OperationObject, ResponseObject } from 'openapi3-ts';
import { API_VERSION, contract } from './contract';
import { HEADER_DOCS, HEADERS_ON_EVERY_RESPONSE, Header, type THeaderName } from './headers';
import type { TRouteMetadata } from './routers/metadata';
import { ERROR_STATUS } from './schemas/error';

export type TOpenApiServers = {
  /** Public base address of production, ending in `/v1`. */
  productionUrl: string;
  /** Public base address of staging, ending in `/v1`. */
  stagingUrl: string;
};

/** Placeholders used in the committed document; a running API serves its configured addresses. */
export const DEFAULT_SERVERS: TOpenApiServers = {
  productionUrl: 'https://api.pet-adoption.dev/v1',
  stagingUrl: 'https://staging-api.pet-adoption.dev/v1',
};

const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Invalid request: a query, path or body value breaks the schema (`invalid_request`).',
  401: 'The API key is missing, malformed, unknown or revoked (`unauthorized`).',
  404: 'No such resource (`not_found`).',
  413: 'The body is larger than 16 KiB (`payload_too_large`).',
  415: 'The body is not `application/json` (`unsupported_media_type`).',
  429: 'Rate limit exceeded (`rate_limited`), or the key is temporarily banned for retrying while limited (`api_key_banned`). Wait `Retry-After` seconds.',
  500: 'Unexpected server error (`internal_error`). Safe to retry with backoff.',
  503: 'A dependency of the service is unavailable (`service_unavailable`). Retry with backoff.',
};

const PRODUCTION_DESCRIPTION = `The pet adoption service: browse the animals of a store, add new arrivals, and follow adoption orders.

Every operation needs an API key sent as \`Authorization: Bearer <key>\`. Keys are per environment:
production keys start with \`pets_live_\`, staging keys with \`pets_test_\`.

Every response carries rate-limit headers; a \`429\` carries \`Retry-After\`. Errors always have the body
\`{ "code", "message", "status" }\`, where \`code\` is one of: ${Object.keys(ERROR_STATUS)
  .map((code) => `\`${code}\``)
  .join(', ')}.`;

const headerRef = (name: THeaderName) => ({ $ref: `#/components/headers/${name}` });

const responseHeaderNames = (route: AppRoute, status: number): THeaderName[] => {
  const metadata = (route.metadata ?? {}) as TRouteMetadata;
  const extra = [
    ...(metadata.responseHeaders?.all ?? []),
    ...(metadata.responseHeaders?.[status] ?? []),
  ];
  const names = [...HEADERS_ON_EVERY_RESPONSE, ...extra];
  if (status === 429) {
    names.push(Header.retryAfter);
  }
  return [...new Set(names)];
};

const describeOperation = (operation: OperationObject, route: AppRoute): OperationObject => {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(
    operation.responses as Record<string, ResponseObject>,
  )) {
    const code = Number(status);
    responses[status] = {
      ...response,
      description: STATUS_DESCRIPTIONS[code] ?? response.description,
      headers: Object.fromEntries(
        responseHeaderNames(route, code).map((name) => [name, headerRef(name)]),
      ),
    };
  }
  return {
    ...operation,
    // ts-rest would leave an empty parameter list; the linter prefers none.
    parameters: operation.parameters?.length ? operation.parameters : undefined,
    ...(operation.requestBody
      ? { requestBody: { ...operation.requestBody, description: 'JSON body.', required: true } }
      : {}),
    security: [{ bearerAuth: [] }],
    responses,
  };
};

const removeUndefined = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The OpenAPI 3 document of the v1 contract, generated, never written by hand. */
export const buildOpenApiDocument = (servers: TOpenApiServers = DEFAULT_SERVERS): OpenAPIObject => {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'Pet Adoption API',
        version: API_VERSION,
        description: PRODUCTION_DESCRIPTION,
        license: { name: 'Proprietary', url: 'https://pet-adoption.dev/terms' },
        contact: { name: 'API support', email: 'api@pet-adoption.dev' },
      },
      servers: [
        { url: servers.productionUrl, description: 'Production' },
        { url: servers.stagingUrl, description: 'Staging' },
      ],
      tags: [
        { name: 'pets', description: 'The animals of the store.' },
        { name: 'orders', description: "The caller's adoption orders." },
        { name: 'categories', description: 'The categories animals belong to.' },
      ],
      security: [{ bearerAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key issued for this environment, sent as the bearer token.',
          },
        },
        headers: Object.fromEntries(
          Object.entries(HEADER_DOCS).map(([name, doc]) => [
            name,
            { description: doc.description, schema: { type: doc.type }, example: doc.example },
          ]),
        ),
      },
    },
    { setOperationId: true, operationMapper: describeOperation },
  );
  return removeUndefined({ ...document, openapi: '3.0.3' });
};

/** Every operation name of the contract, as `operationId`s in the document. */
export const operationNames = (): string[] => {
  const names: string[] = [];
  const walk = (router: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(router)) {
      if (isAppRoute(value as AppRoute)) {
        names.push(key);
      } else {
        walk(value as Record<string, unknown>);
      }
    }
  };
  walk(contract);
  return names;
};
