import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, OperationObject, ResponseObject } from 'openapi3-ts';
import { API_PATH_PREFIX, API_VERSION, contract } from './contract';
import {
  HEADER_DOCS,
  HEADERS_ON_EVERY_RESPONSE,
  Header,
  RATE_LIMIT_HEADERS,
  type TDocumentedHeader,
} from './headers';
import type { TRouteMetadata } from './routers/metadata';
import { CONTRACT_ROUTES } from './routes';
import { BODY_LIMIT_TEXT } from './rules/body-limit';
import { ERROR_STATUS } from './schemas/error';

export type TOpenApiServers = {
  /** Public base address of production, ending in `/v1`. */
  productionUrl: string;
  /** Public base address of staging, ending in `/v1`. */
  stagingUrl: string;
  /**
   * The base address of the API that serves the document, listed first as "This server". A
   * running API gives `/v1` (`THIS_SERVER_URL`): OpenAPI resolves a relative server address
   * against the document's own address, so it names that API wherever it runs.
   */
  thisServerUrl?: string;
};

/** The base address of the serving API, relative to the document at `/v1/openapi.json`. */
export const THIS_SERVER_URL = API_PATH_PREFIX;

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
  403: 'The key may not do this: a read-only key writing, or a partner key calling a staff operation (`forbidden`).',
  404: 'No such resource (`not_found`).',
  413: `The body is larger than ${BODY_LIMIT_TEXT} (\`payload_too_large\`).`,
  415: 'The body is not `application/json` (`unsupported_media_type`).',
  429: 'Rate limit exceeded (`rate_limited`), or the key is temporarily banned for retrying while limited (`api_key_banned`). Wait `Retry-After` seconds.',
  500: 'Unexpected server error (`internal_error`). Safe to retry with backoff.',
  503: 'A dependency of the service is unavailable (`service_unavailable`). Retry with backoff.',
};

const PRODUCTION_DESCRIPTION = `The pet adoption service: browse the animals of a store, add new arrivals, and follow adoption orders.

Every operation needs an API key sent as \`Authorization: Bearer <key>\`. Keys are per environment:
production keys start with \`pets_live_\`, staging keys with \`pets_test_\`. A key is a \`partner\` key
(the default: the animals, and its own adoption orders) or a \`staff\` key (the store: every order, approving
and completing them, changing animals); a read-only partner key can only read. A key without the right
gets \`403\`; a resource it may not see is \`404\`.

Every response carries rate-limit headers; a \`429\` carries \`Retry-After\`. Errors always have the body
\`{ "code", "message", "status" }\`, where \`code\` is one of: ${Object.keys(ERROR_STATUS)
  .map((code) => `\`${code}\``)
  .join(', ')}.`;

/** Statuses that may be sent before the rate limiter ran, so without its headers. */
const BEFORE_RATE_LIMIT = new Set([500, 503]);

/**
 * The headers of one response of an operation, each `required` when every such response carries
 * it (validators such as Prism check only those): the ones on every response, the operation's
 * (`responseHeaders.all` and per status), `Retry-After` on 429, `WWW-Authenticate` on 401. A
 * conditional header (a next page, CORS) is required only where the operation sends it always.
 * Written out in each response rather than referenced, since `required` differs between them.
 */
const responseHeaders = (route: AppRoute, status: number) => {
  const metadata = (route.metadata ?? {}) as TRouteMetadata;
  const always = new Set<TDocumentedHeader>(metadata.responseHeaders?.all ?? []);
  const names: TDocumentedHeader[] = [
    ...HEADERS_ON_EVERY_RESPONSE,
    ...always,
    ...(metadata.responseHeaders?.[status] ?? []),
    ...(status === 401 ? [Header.wwwAuthenticate] : []),
    ...(status === 429 ? [Header.retryAfter] : []),
  ];
  return Object.fromEntries(
    [...new Set(names)].map((name) => {
      const { description, schema, example, conditional } = HEADER_DOCS[name];
      const optional =
        (conditional && !always.has(name)) ||
        (BEFORE_RATE_LIMIT.has(status) && RATE_LIMIT_HEADERS.includes(name));
      return [name, { description, required: !optional, schema, example }];
    }),
  );
};

const describeOperation = (operation: OperationObject, route: AppRoute): OperationObject => {
  const metadata = (route.metadata ?? {}) as TRouteMetadata;
  const role = metadata.requiredRole;
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(
    operation.responses as Record<string, ResponseObject>,
  )) {
    const code = Number(status);
    responses[status] = {
      ...response,
      description:
        metadata.responseDescriptions?.[code] ?? STATUS_DESCRIPTIONS[code] ?? response.description,
      headers: responseHeaders(route, code),
    };
  }
  return {
    ...operation,
    ...(role
      ? {
          description: `${operation.description ?? ''}\n\nNeeds a \`${role}\` key.`.trim(),
          'x-required-role': role,
        }
      : {}),
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

/**
 * A route's path relative to the base address, as the spec writes it (`/pets`): the base address
 * already ends in `/v1`, and OpenAPI tools join the two, so a path that kept the prefix would be
 * called as `/v1/v1/pets`. ts-rest's `pathPrefix` stays, because the server routes on it.
 */
export const documentPath = (path: string): string => {
  if (!path.startsWith(`${API_PATH_PREFIX}/`)) {
    throw new Error(`${path} is outside the base address ${API_PATH_PREFIX}`);
  }
  return path.slice(API_PATH_PREFIX.length);
};

type TSchema = {
  default?: unknown;
  description?: string;
  properties?: Record<string, TSchema>;
};

/**
 * Request bodies' schemas without `default`: the server fills an omitted field in, but generators
 * read `default` as "always present" (openapi-typescript makes such a property required), so
 * `createPet({ name, categoryId })` would not type-check. The value used moves to the description.
 */
const withoutRequestDefaults = (document: OpenAPIObject): Record<string, TSchema> => {
  const schemas = (document.components?.schemas ?? {}) as Record<string, TSchema>;
  const bodies = new Set(
    Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, OperationObject>).flatMap((operation) => {
        const ref = (
          operation.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> }
        )?.content?.['application/json']?.schema?.$ref;
        return ref ? [ref.replace('#/components/schemas/', '')] : [];
      }),
    ),
  );
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      if (!bodies.has(name) || !schema.properties) {
        return [name, schema];
      }
      const properties = Object.fromEntries(
        Object.entries(schema.properties).map(([field, property]) => {
          if (property.default === undefined) {
            return [field, property];
          }
          const { default: value, ...rest } = property;
          const shown = typeof value === 'string' ? value : JSON.stringify(value);
          const note = `Optional: when omitted, \`${shown}\`.`;
          return [
            field,
            { ...rest, description: [rest.description, note].filter(Boolean).join(' ') },
          ];
        }),
      );
      return [name, { ...schema, properties }];
    }),
  );
};

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
        ...(servers.thisServerUrl
          ? [{ url: servers.thisServerUrl, description: 'This server' }]
          : []),
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
      },
    },
    { setOperationId: true, operationMapper: describeOperation },
  );
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [documentPath(path), item]),
  );
  return removeUndefined({
    ...document,
    openapi: '3.0.3',
    // x-internal: each server's audience (OWASP API9); all of them serve the public.
    servers: [
      ...(servers.thisServerUrl
        ? [{ url: servers.thisServerUrl, description: 'This server', 'x-internal': false }]
        : []),
      { url: servers.productionUrl, description: 'Production', 'x-internal': false },
      { url: servers.stagingUrl, description: 'Staging', 'x-internal': false },
    ],
    paths,
    components: { ...document.components, schemas: withoutRequestDefaults(document) },
  });
};

/** Every operation name of the contract, as `operationId`s in the document. */
export const operationNames = (): string[] => CONTRACT_ROUTES.map(({ name }) => name);
