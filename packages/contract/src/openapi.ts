import { generateSchema } from '@anatine/zod-openapi';
import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts';
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
import {
  CONDITION_HEADER_MAX_LENGTH,
  conditionHeadersOf,
  sendsEtag,
  type TConditionHeader,
} from './rules/etag';
import { ZConditionHeader } from './schemas/condition';
import { ERROR_STATUS } from './schemas/error';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
} from './schemas/idempotency';

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
  /**
   * The environment of the API that serves the document: its own public address
   * (`productionUrl` or `stagingUrl`) is then listed first, absolute, as "This server
   * (production)", so a client generated from the served document works without configuration
   * and says which environment it talks to. Takes precedence over `thisServerUrl`.
   */
  thisServerEnvironment?: 'production' | 'staging';
};

/** The base address of the serving API, relative to the document at `/v1/openapi.json`. */
/** The name of the document's security scheme: an API key as the bearer token. */
export const BEARER_SECURITY_SCHEME = 'bearerAuth';

export const THIS_SERVER_URL = API_PATH_PREFIX;

/** Placeholders used in the committed document; a running API serves its configured addresses. */
export const DEFAULT_SERVERS: TOpenApiServers = {
  productionUrl: 'https://api.pet-adoption.dev/v1',
  stagingUrl: 'https://staging-api.pet-adoption.dev/v1',
};

const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  304: 'Not modified: the `If-None-Match` names the current `ETag`, so the answer is the one you have. No body; the rate-limit headers as on every answer (a `304` counts towards the limits).',
  400: 'Invalid request (`invalid_request`): a query, path, header or body value breaks the schema, or the request itself is malformed (a bad percent-encoding, a body that is not valid JSON or not UTF-8, two `Authorization` headers).',
  401: 'The API key is missing, malformed, unknown or revoked (`unauthorized`).',
  403: 'The key may not do this: a read-only key writing, or a partner key calling a staff operation (`forbidden`).',
  404: 'No such resource (`not_found`).',
  408: 'The request was not received in time: its headers or its body came too slowly (`request_timeout`). The connection is closed; send the request again, faster.',
  412: 'The `If-Match` does not name the current version (`precondition_failed`). Nothing changed.',
  409: 'Conflict: another request with the same `Idempotency-Key` is still in progress (`idempotency_key_in_use`); retry after a moment.',
  413: `The body is larger than ${BODY_LIMIT_TEXT} (\`payload_too_large\`).`,
  415: 'The body is not `application/json` (`unsupported_media_type`).',
  422: 'The `Idempotency-Key` was already used with a different request (`idempotency_key_reused`): use a new key for a new request.',
  429: 'Rate limit exceeded (`rate_limited`), or the key is temporarily banned for retrying while limited (`api_key_banned`). Wait `Retry-After` seconds.',
  431: 'The request headers are larger than the server accepts (`headers_too_large`).',
  500: 'Unexpected server error (`internal_error`). Safe to retry with backoff.',
  501: 'The request method is not one the server knows (`not_implemented`).',
  503: 'The database is unavailable (`service_unavailable`). Wait `Retry-After` seconds, then retry with backoff.',
};

const PRODUCTION_DESCRIPTION = `The pet adoption service: browse the animals of a store, add new arrivals, and follow adoption orders.

Every operation needs an API key sent as \`Authorization: Bearer <key>\`. A key's prefix is its mode:
\`pets_live_\` (live) or \`pets_test_\` (test). Production accepts both, but a test key there may only
read and manage its own webhook endpoints (any other write is \`403\`); staging accepts test keys only,
for everything. A key is a \`partner\` key
(the default: the animals, and its own adoption orders) or a \`staff\` key (the store: every order, approving
and completing them, changing animals); a read-only partner key can only read. A key without the right
gets \`403\`; a resource it may not see is \`404\`.

Every response carries rate-limit headers; a \`429\` carries \`Retry-After\`. Errors always have the body
\`{ "code", "message", "status" }\`, where \`code\` is one of: ${Object.keys(ERROR_STATUS)
  .map((code) => `\`${code}\``)
  .join(', ')}.`;

/**
 * Statuses an idempotent operation may replay (marked `Idempotent-Replayed`): its own answers,
 * success or failure, never those decided before it ran (401, 403, 408, 413, 415, 429, 431), the
 * key's own errors (409 in use is also an operation's conflict, so it stays; 422 never), or a 5xx.
 */
const NOT_REPLAYED = new Set([401, 403, 408, 413, 415, 422, 429, 431]);
const isReplayable = (status: number): boolean => status < 500 && !NOT_REPLAYED.has(status);

/** The `Idempotency-Key` request header, as every idempotent operation documents it. */
const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry: a unique value of your choice (a UUID, say), at most ' +
    `${IDEMPOTENCY_KEY_MAX_LENGTH} printable characters. The first response with this key (its ` +
    'status, body and `Location`) is kept for at least 24 hours, per API key and operation, and ' +
    'sent again, with `Idempotent-Replayed: true`, to a retry with the same key and the same ' +
    'body, without running the operation twice. The same key with a different body is a `422` ' +
    '(`idempotency_key_reused`); a retry while the first request is still running waits for it ' +
    '(or gets `409 idempotency_key_in_use` after a few seconds). A request that failed with a ' +
    '`5xx`, or that was refused before it ran (`400` on its input, `401`, `403`, `413`, `415`, ' +
    '`429`), is not kept: retry it with the same key. For example ' +
    '`2f1c7d54-9a6e-4f0b-8f4e-6b8e2b1d3c90`.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    pattern: IDEMPOTENCY_KEY_PATTERN.source,
  },
};

/** Both condition headers' bounds, from the schema the API checks them with. */
const CONDITION_HEADER_SCHEMA = generateSchema(ZConditionHeader) as SchemaObject;
const CONDITION_LENGTH_TEXT =
  `At most ${CONDITION_HEADER_MAX_LENGTH} characters: an empty or a longer one is ` +
  '`400 invalid_request`.';

/**
 * `If-None-Match`, on every GET: it may answer `304`. Without an example, like `If-Match`: tools
 * that try an operation send an optional parameter's example, and any fixed ETag would be stale.
 */
const IF_NONE_MATCH_PARAMETER: ParameterObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'The `ETag` of the answer you have (or several, comma-separated): while it is still the ' +
    `answer, \`304 Not Modified\` with no body (counted by the rate limits). ${CONDITION_LENGTH_TEXT}`,
  schema: CONDITION_HEADER_SCHEMA,
};

/** `If-Match`, on `updatePet`: the change is made only to the version it names. */
const IF_MATCH_PARAMETER: ParameterObject = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'The `ETag` of the resource as you read it (from a `GET` or the last `PATCH`): the change is ' +
    'made only if it is still the current version, else `412 precondition_failed` and nothing ' +
    'changes. `*` matches any version. Without it the change is made whatever the version. ' +
    CONDITION_LENGTH_TEXT,
  schema: CONDITION_HEADER_SCHEMA,
};

const CONDITION_PARAMETERS: Record<TConditionHeader, ParameterObject> = {
  'If-None-Match': IF_NONE_MATCH_PARAMETER,
  'If-Match': IF_MATCH_PARAMETER,
};

/**
 * Statuses that may be sent before the rate limiter ran, so without its headers: Node's parser
 * refuses a malformed request (400) or oversized headers (431) before any route is known.
 */
const BEFORE_RATE_LIMIT = new Set([400, 408, 431, 500, 503]);

/**
 * The headers of one response of an operation, each `required` when every such response carries
 * it (validators such as Prism check only those): the ones on every response, the operation's
 * (`responseHeaders.all` and per status), `Retry-After` on 429 and 503, `WWW-Authenticate` on 401. A
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
    ...(metadata.idempotent && isReplayable(status) ? [Header.idempotentReplayed] : []),
    ...(status === 401 ? [Header.wwwAuthenticate] : []),
    ...(sendsEtag(route.method, status) || status === 304 ? [Header.etag] : []),
    ...(status === 429 || status === 503 ? [Header.retryAfter] : []),
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
  // ts-rest lists the route's `headers` under their lower-case keys with no description: an
  // idempotent operation gets the documented `Idempotency-Key` instead.
  const isIdempotent = ((route.metadata ?? {}) as TRouteMetadata).idempotent === true;
  const parameters = [
    ...(withParameterExamples(operation).parameters ?? []).filter(
      (parameter) => !('in' in parameter && parameter.in === 'header'),
    ),
    ...(isIdempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...conditionHeadersOf(route).map((name) => CONDITION_PARAMETERS[name]),
  ].map(withoutExampleWhenOptional);
  return {
    ...operation,
    ...(role
      ? {
          description: `${operation.description ?? ''}\n\nNeeds a \`${role}\` key.`.trim(),
          'x-required-role': role,
        }
      : {}),
    // The partner's limits on this operation, as the API enforces them (AccessGuard).
    ...(metadata.partnerLimits ? { 'x-partner-limits': metadata.partnerLimits } : {}),
    // ts-rest would leave an empty parameter list; the linter prefers none.
    parameters: parameters.length ? parameters : undefined,
    ...(metadata.requestBody
      ? { requestBody: { ...metadata.requestBody, required: true } }
      : operation.requestBody
        ? { requestBody: { ...operation.requestBody, description: 'JSON body.', required: true } }
        : {}),
    security: [{ bearerAuth: [] }],
    responses,
  };
};

const removeUndefined = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Names of the shared responses, by status: what a reader of the document sees. */
const RESPONSE_NAMES: Record<number, string> = {
  304: 'NotModified',
  400: 'InvalidRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  408: 'RequestTimeout',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  412: 'PreconditionFailed',
  422: 'IdempotencyKeyReused',
  429: 'RateLimited',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

type THeaderObject = { required?: boolean } & Record<string, unknown>;
type TComponents = {
  headers: Record<string, THeaderObject>;
  responses: Record<string, ResponseObject>;
};

/**
 * Every response header once, in `components.headers`, referenced from each response: the same
 * few headers on every one of about 150 responses were most of the document. `required` belongs
 * to the header object and a reference cannot change it, so a header some responses always carry
 * and others only may is written twice: `X-RateLimit-Limit` and `X-RateLimit-Limit.optional`.
 */
const shareHeaders = (responses: ResponseObject[], components: TComponents): void => {
  const variants = new Map<string, Set<boolean>>();
  for (const response of responses) {
    for (const [name, header] of Object.entries(
      (response.headers ?? {}) as Record<string, THeaderObject>,
    )) {
      variants.set(name, (variants.get(name) ?? new Set()).add(header.required === true));
    }
  }
  for (const response of responses) {
    response.headers = Object.fromEntries(
      Object.entries((response.headers ?? {}) as Record<string, THeaderObject>).map(
        ([name, header]) => {
          const key = header.required || variants.get(name)?.size === 1 ? name : `${name}.optional`;
          components.headers[key] ??= header;
          return [name, { $ref: `#/components/headers/${key}` }];
        },
      ),
    );
  }
};

/**
 * Error responses that several operations answer word for word (the 401, 429, 431, 5xx every
 * operation can answer) written once, in `components.responses`, and referenced. A variant of a
 * status used by one operation only (its own 404 wording, say) stays in that operation.
 */
const shareResponses = (document: OpenAPIObject): OpenAPIObject => {
  const components: TComponents = { headers: {}, responses: {} };
  const operations = Object.values(document.paths).flatMap(
    (item) => Object.values(item as Record<string, OperationObject>) as OperationObject[],
  );
  shareHeaders(
    operations.flatMap((operation) => Object.values(operation.responses) as ResponseObject[]),
    components,
  );
  const uses = new Map<string, number>();
  for (const operation of operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      const key = `${status} ${JSON.stringify(response)}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  // The most used variant of a status takes its plain name; the others are numbered.
  const names = new Map<string, string>();
  const taken = new Map<string, number>();
  for (const [key] of [...uses.entries()]
    .filter(([, count]) => count > 1)
    .sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b))) {
    const status = Number(key.slice(0, key.indexOf(' ')));
    const base = RESPONSE_NAMES[status];
    if (!base) {
      continue;
    }
    const index = (taken.get(base) ?? 0) + 1;
    taken.set(base, index);
    names.set(key, index === 1 ? base : `${base}${index}`);
  }
  for (const operation of operations) {
    const responses = operation.responses as Record<string, ResponseObject | { $ref: string }>;
    for (const [status, response] of Object.entries(responses)) {
      const name = names.get(`${status} ${JSON.stringify(response)}`);
      if (name) {
        components.responses[name] ??= response as ResponseObject;
        responses[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
  return {
    ...document,
    components: {
      ...document.components,
      headers: sortedByKey(components.headers),
      responses: sortedByKey(components.responses),
    },
  };
};

const sortedByKey = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

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

/**
 * OpenAPI 3.0 reads `nullable` as allowing null only where `enum` lists it too (the 3.0.3
 * clarification): a nullable enum (`sex` of a Pet) gets `null` among its values, so validators
 * accept the `null` the API sends.
 */
const withNullInNullableEnums = <T>(value: T): T => {
  if (Array.isArray(value)) {
    return value.map(withNullInNullableEnums) as T;
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const entries = Object.entries(value).map(([key, item]) => [key, withNullInNullableEnums(item)]);
  const schema = Object.fromEntries(entries) as { nullable?: boolean; enum?: unknown[] };
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
  return schema as T;
};

/** The OpenAPI 3 document of the v1 contract, generated, never written by hand. */
/** The document's servers: this server first (when known), then the public environments. */
const serverList = (servers: TOpenApiServers) => {
  const environments = [
    { environment: 'production', url: servers.productionUrl, description: 'Production' },
    { environment: 'staging', url: servers.stagingUrl, description: 'Staging' },
  ] as const;
  const own = environments.find(({ environment }) => environment === servers.thisServerEnvironment);
  if (own) {
    return [
      { url: own.url, description: `This server (${own.environment})`, 'x-internal': false },
      ...environments
        .filter((each) => each !== own)
        .map(({ url, description }) => ({ url, description, 'x-internal': false })),
    ];
  }
  return [
    ...(servers.thisServerUrl
      ? [{ url: servers.thisServerUrl, description: 'This server', 'x-internal': false }]
      : []),
    ...environments.map(({ url, description }) => ({ url, description, 'x-internal': false })),
  ];
};

/**
 * A path parameter's example on the parameter itself too: tools that read only the parameter's
 * `example` (Dredd) need one for every required path parameter.
 */
const withParameterExamples = (operation: OperationObject): OperationObject => ({
  ...operation,
  parameters: operation.parameters?.map((parameter) => {
    if (!('in' in parameter) || parameter.in !== 'path' || parameter.example !== undefined) {
      return parameter;
    }
    const example = (parameter.schema as { example?: unknown } | undefined)?.example;
    return example === undefined ? parameter : { ...parameter, example };
  }),
});

/**
 * An optional parameter carries no example: tools that try an operation (Swagger UI, Postman,
 * Scalar) send an optional parameter's example as if the caller had chosen it, and List animals
 * answered `[]` to `id=42,7&name=bis`. Its description gives examples of its values in words; a
 * required path parameter keeps its example (a request cannot be sent without one). The API's
 * reference page also tells Scalar not to fill one from its enum or default (docs-page.ts).
 */
const withoutExampleWhenOptional = <T extends ParameterObject | ReferenceObject>(
  parameter: T,
): T => {
  if (!('in' in parameter) || parameter.required || parameter.in === 'path') {
    return parameter;
  }
  const { example: _example, examples: _examples, schema, ...rest } = parameter;
  const { example: _schemaExample, ...unexampled } = (schema ?? {}) as SchemaObject;
  return { ...rest, schema: unexampled } as T;
};

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
        { name: 'me', description: 'The calling API key: its role and what it may do.' },
      ],
      security: [{ [BEARER_SECURITY_SCHEME]: [] }],
      components: {
        securitySchemes: {
          [BEARER_SECURITY_SCHEME]: {
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
  return shareResponses(
    removeUndefined({
      ...document,
      openapi: '3.0.3',
      // x-internal: each server's audience (OWASP API9); all of them serve the public.
      servers: serverList(servers),
      paths,
      components: {
        ...document.components,
        schemas: withNullInNullableEnums(withoutRequestDefaults(document)),
      },
    }),
  );
};

/** Every operation name of the contract, as `operationId`s in the document. */
export const operationNames = (): string[] => CONTRACT_ROUTES.map(({ name }) => name);
