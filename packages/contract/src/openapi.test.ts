import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, documentPath, operationNames, THIS_SERVER_URL } from './openapi';
import type { TRouteMetadata } from './routers/metadata';
import { CONTRACT_ROUTES } from './routes';
import { PETS_CURSOR } from './schemas/pet';

const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
const document = buildOpenApiDocument();

type THeader = { required?: boolean; example?: unknown; schema?: Record<string, unknown> };
type TOperation = {
  operationId: string;
  deprecated?: boolean;
  security?: unknown;
  parameters?: { name: string; in: string; required?: boolean; schema?: { example?: unknown } }[];
  responses: Record<string, { headers?: Record<string, THeader> }>;
};
/** A shared response or header (`#/components/...`) replaced by what it refers to. */
const dereferenced = (value: unknown): unknown => {
  if (Array.isArray(value)) {
    return value.map(dereferenced);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && /^#\/components\/(responses|headers)\//.test(ref)) {
    const [, , kind, name] = ref.split('/');
    const components = document.components as Record<string, Record<string, unknown>>;
    return dereferenced(components[kind ?? '']?.[name ?? '']);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, dereferenced(item)]));
};
const operations = Object.entries(dereferenced(document.paths) as object).flatMap(([path, item]) =>
  Object.entries(item as Record<string, TOperation>).map(([method, operation]) => ({
    path,
    method,
    operation,
  })),
);

describe('openapi.json', () => {
  it('is up to date with the contract (run `pnpm openapi` after changing it)', () => {
    expect(committed).toEqual(document);
  });

  it('describes the thirty-two operations relative to the /v1 base, with their names as operationIds', () => {
    expect(
      operations
        .map(({ method, path, operation }) => `${operation.operationId} ${method} ${path}`)
        .sort(),
    ).toEqual([
      'addOrderNote post /store/orders/{orderId}/notes',
      'addPetPhoto post /pets/{petId}/photos',
      'approveOrder post /store/orders/{orderId}/approve',
      'askAdopter post /store/orders/{orderId}/questions',
      'cancelOrder post /store/orders/{orderId}/cancel',
      'completeOrder post /store/orders/{orderId}/complete',
      'confirmOrderByLink post /store/order-links/confirm',
      'createPet post /pets',
      'createWebhookEndpoint post /webhook-endpoints',
      'declineOrder post /store/orders/{orderId}/decline',
      'deletePetPhoto delete /pets/{petId}/photos/{photoId}',
      'deleteWebhookEndpoint delete /webhook-endpoints/{endpointId}',
      'getCurrentKey get /me',
      'getOrder get /store/orders/{orderId}',
      'getOrderByLink post /store/order-links/lookup',
      'getPet get /pets/{petId}',
      'getWebhookEndpoint get /webhook-endpoints/{endpointId}',
      'listCategories get /categories',
      'listEvents get /events',
      'listOrderNotes get /store/orders/{orderId}/notes',
      'listOrders get /store/orders',
      'listPets get /pets',
      'listWebhookDeliveries get /webhook-endpoints/{endpointId}/deliveries',
      'listWebhookEndpoints get /webhook-endpoints',
      'placeOrder post /store/orders',
      'reorderPetPhotos put /pets/{petId}/photos/order',
      'retryWebhookDelivery post /webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry',
      'rotateWebhookSecret post /webhook-endpoints/{endpointId}/rotate-secret',
      'sendOrderLinks post /store/order-links',
      'testWebhookEndpoint post /webhook-endpoints/{endpointId}/test',
      'updatePet patch /pets/{petId}',
      'updateWebhookEndpoint patch /webhook-endpoints/{endpointId}',
    ]);
    expect(operationNames().sort()).toEqual(
      operations.map(({ operation }) => operation.operationId).sort(),
    );
  });

  it('is version 1.0.0 with production and staging servers', () => {
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers?.map((server) => server.description)).toEqual([
      'Production',
      'Staging',
    ]);
    expect(document.servers?.every((server) => server.url.endsWith('/v1'))).toBe(true);
  });

  it('joins every server address and path, as OpenAPI tools do, into the route the API serves', () => {
    // A server address ends in /v1 and the paths are relative to it (spec, section 1): a client
    // calls server + path, so a path that repeated /v1 would reach /v1/v1/... and a 404.
    const served = new Set(
      CONTRACT_ROUTES.map(({ route }) => `${route.method.toLowerCase()} ${route.path}`),
    );
    for (const server of document.servers ?? []) {
      for (const { method, path } of operations) {
        const joined = decodeURIComponent(new URL(`${server.url}${path}`).pathname);
        expect(served).toContain(`${method} ${joined.replace(/\{(\w+)\}/g, ':$1')}`);
      }
    }
  });

  it('takes the server addresses from the caller, "This server" first when given', () => {
    const custom = buildOpenApiDocument({
      productionUrl: 'https://api.example.org/v1',
      stagingUrl: 'https://staging.example.org/v1',
      thisServerUrl: THIS_SERVER_URL,
    });
    expect(custom.servers).toEqual([
      { url: '/v1', description: 'This server', 'x-internal': false },
      { url: 'https://api.example.org/v1', description: 'Production', 'x-internal': false },
      { url: 'https://staging.example.org/v1', description: 'Staging', 'x-internal': false },
    ]);
    expect(custom.paths).toEqual(document.paths);
  });

  it('refuses a route outside the base address', () => {
    expect(documentPath('/v1/pets/:petId')).toBe('/pets/:petId');
    expect(() => documentPath('/v2/pets')).toThrow(/outside the base address \/v1/);
    expect(() => documentPath('/v1')).toThrow();
  });

  it('requires the bearer key on every operation', () => {
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const { operation } of operations) {
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
  });

  it('lists 400 and 431 on every operation, and 413 and 415 on every one that can carry a body', () => {
    for (const { method, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      expect(statuses, operation.operationId).toEqual(expect.arrayContaining(['400', '431']));
      if (method !== 'get') {
        expect(statuses, operation.operationId).toEqual(expect.arrayContaining(['413', '415']));
      }
    }
  });

  it('writes each header and each common error response once, and refers to them', () => {
    const components = document.components as Record<string, Record<string, unknown>>;
    expect(Object.keys(components.headers ?? {})).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-Request-Id', 'Retry-After']),
    );
    expect(Object.keys(components.responses ?? {})).toEqual(
      expect.arrayContaining(['Unauthorized', 'RateLimited', 'HeadersTooLarge', 'InternalError']),
    );
    const raw = document.paths['/me'] as Record<string, { responses: Record<string, unknown> }>;
    expect(raw.get?.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    // Written out in every response, the headers made the document ~40 KB an operation (595 KB
    // for 15); shared, about 10 (321 KB for 32, with the schemas' descriptions and examples).
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.keys(item ?? {}).filter((key) =>
        ['get', 'post', 'patch', 'put', 'delete'].includes(key),
      ),
    );
    expect(JSON.stringify(document, null, 2).length).toBeLessThan(operations.length * 12_000);
  });

  it('lists 401 and 429 on every operation, with the rate-limit headers on every response', () => {
    for (const { operation } of operations) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '429']));
      for (const response of Object.values(operation.responses)) {
        expect(Object.keys(response.headers ?? {})).toEqual(
          expect.arrayContaining([
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
          ]),
        );
      }
      expect(Object.keys(operation.responses['429']?.headers ?? {})).toContain('Retry-After');
    }
  });

  it('marks only getPet deprecated, with Deprecation, Sunset and Link headers', () => {
    const deprecated = operations.filter(({ operation }) => operation.deprecated);
    expect(deprecated.map(({ operation }) => operation.operationId)).toEqual(['getPet']);
    const headers = Object.keys(deprecated[0]?.operation.responses['200']?.headers ?? {});
    expect(headers).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
  });

  it('has examples on the main schemas', () => {
    for (const name of ['Pet', 'NewPet', 'Error', 'Order', 'Category']) {
      expect(document.components?.schemas?.[name]).toHaveProperty('example');
    }
  });

  describe('profiles and photos', () => {
    const operation = (operationId: string) =>
      operations.find((entry) => entry.operation.operationId === operationId)?.operation as
        | (TOperation & {
            requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
          })
        | undefined;

    it('describes the photo upload as an image body or a form with one file field', () => {
      const body = operation('addPetPhoto')?.requestBody;
      expect(body?.required).toBe(true);
      expect(Object.keys(body?.content ?? {}).sort()).toEqual([
        'image/jpeg',
        'image/png',
        'image/webp',
        'multipart/form-data',
      ]);
      expect(body?.content['image/png']?.schema).toMatchObject({
        type: 'string',
        format: 'binary',
        maxLength: 10 * 1024 * 1024,
      });
      expect(body?.content['multipart/form-data']?.schema).toMatchObject({
        type: 'object',
        required: ['photo'],
        properties: { photo: { type: 'string', format: 'binary' } },
      });
      expect(Object.keys(operation('addPetPhoto')?.responses ?? {})).toEqual(
        expect.arrayContaining(['201', '400', '403', '404', '409', '413', '415', '422']),
      );
      expect(operation('addPetPhoto')?.responses['201']?.headers?.Location?.required).toBe(true);
    });

    it('keeps JSON bodies as JSON, and the photo routes open to every key that may write', () => {
      expect(Object.keys(operation('reorderPetPhotos')?.requestBody?.content ?? {})).toEqual([
        'application/json',
      ]);
      expect(operation('deletePetPhoto')?.requestBody).toBeUndefined();
      for (const name of ['addPetPhoto', 'deletePetPhoto', 'reorderPetPhotos']) {
        expect(operation(name)).not.toHaveProperty('x-required-role');
      }
    });

    it('lists null among the values of a nullable enum, so validators accept it', () => {
      const pet = document.components?.schemas?.Pet as {
        properties: Record<string, { enum?: unknown[]; nullable?: boolean }>;
      };
      for (const field of ['sex', 'age', 'size']) {
        expect(pet.properties[field]?.nullable).toBe(true);
        expect(pet.properties[field]?.enum).toContain(null);
      }
      expect(pet.properties.status?.enum).not.toContain(null);
    });

    it('documents X-Total-Count on listPets, sent only when asked', () => {
      const header = operation('listPets')?.responses['200']?.headers?.['X-Total-Count'];
      expect(header).toMatchObject({ required: false, schema: { type: 'integer' } });
    });
  });

  describe('the smaller drifts a third-party tool found', () => {
    const headersOf = (operationId: string, status: string) =>
      operations.find(({ operation }) => operation.operationId === operationId)?.operation
        .responses[status]?.headers ?? {};
    const required = (headers: Record<string, THeader>) =>
      Object.entries(headers)
        .filter(([, header]) => header.required)
        .map(([name]) => name)
        .sort();

    it('gives the Link header an example whose cursor the API accepts', () => {
      const example = String(headersOf('listPets', '200').Link?.example);
      const target = /^<([^>]+)>; rel="next"$/.exec(example)?.[1] ?? '';
      const query = new URL(target, 'https://api.example.org').searchParams;
      // Sent alone, or with the filters of the link, it continues the same list.
      const cursor = query.get('cursor') ?? '';
      expect(PETS_CURSOR.read(cursor, {})).toEqual({
        before: 22n,
        filters: { status: 'available' },
      });
      expect(PETS_CURSOR.read(cursor, { status: 'available' })).not.toBeNull();
    });

    it('documents WWW-Authenticate on every 401, required', () => {
      for (const { operation } of operations) {
        expect(operation.responses['401']?.headers?.['WWW-Authenticate']?.required).toBe(true);
      }
    });

    it('gives every path parameter an example (Dredd refuses the document without one)', () => {
      const parameters = operations.flatMap(({ operation }) => operation.parameters ?? []);
      const path = parameters.filter((parameter) => parameter.in === 'path');
      expect([...new Set(path.map((parameter) => parameter.name))].sort()).toEqual([
        'deliveryId',
        'endpointId',
        'orderId',
        'petId',
        'photoId',
      ]);
      for (const parameter of path) {
        // The webhooks' ids are prefixed text (`we_12`), the others numbers.
        expect(parameter.schema?.example).toEqual(
          parameter.name.endsWith('Id') && ['deliveryId', 'endpointId'].includes(parameter.name)
            ? expect.stringMatching(/^[a-z]+_\d+$/)
            : expect.any(Number),
        );
      }
    });

    it('gives no optional parameter an example, which a try-it would send as a choice (List animals answered [] to id=42,7)', () => {
      const optional = operations.flatMap(({ operation }) =>
        (operation.parameters ?? [])
          .filter((parameter) => !parameter.required)
          .map((parameter) => ({ operation: operation.operationId, ...parameter })),
      );
      expect(optional.map(({ operation, name }) => `${operation} ${name}`)).toEqual(
        expect.arrayContaining(['listPets id', 'listPets sex', 'createPet Idempotency-Key']),
      );
      for (const parameter of optional) {
        const label = `${parameter.operation} ${parameter.name}`;
        expect(parameter, label).not.toHaveProperty('example');
        expect(parameter, label).not.toHaveProperty('examples');
        expect(parameter.schema ?? {}, label).not.toHaveProperty('example');
      }
    });

    it('has no default in a request body, so generated clients keep the field optional', () => {
      const newPet = document.components?.schemas?.NewPet as {
        required: string[];
        properties: Record<string, { default?: unknown; description?: string }>;
      };
      expect(newPet.required).toEqual(['name', 'categoryId']);
      expect(newPet.properties.status).not.toHaveProperty('default');
      expect(newPet.properties.status?.description).toContain('when omitted, `available`');
    });

    it('marks required the headers every response of an operation carries, and only those', () => {
      const rateLimit = [
        'RateLimit',
        'RateLimit-Policy',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ];
      expect(required(headersOf('listPets', '200'))).toEqual(
        ['ETag', ...rateLimit, 'X-Request-Id'].sort(),
      );
      expect(headersOf('listPets', '200').Link?.required).toBe(false);
      expect(headersOf('listPets', '200')['Access-Control-Allow-Origin']?.required).toBe(false);
      expect(required(headersOf('createPet', '201'))).toEqual(
        [...rateLimit, 'Location', 'X-Request-Id'].sort(),
      );
      expect(required(headersOf('listCategories', '429'))).toEqual(
        [...rateLimit, 'Retry-After', 'X-Request-Id'].sort(),
      );
      for (const status of ['200', '401', '404', '429']) {
        expect(required(headersOf('getPet', status))).toEqual(
          expect.arrayContaining(['Deprecation', 'Link', 'Sunset', ...rateLimit]),
        );
      }
      // A 400 or 431 may come from Node's parser, a 500 or 503 before the rate limiter ran: only
      // X-Request-Id is certain, and on a 503 (the database unavailable) Retry-After.
      expect(required(headersOf('listPets', '400'))).toEqual(['X-Request-Id']);
      expect(required(headersOf('listPets', '431'))).toEqual(['X-Request-Id']);
      expect(required(headersOf('listPets', '500'))).toEqual(['X-Request-Id']);
      expect(required(headersOf('listPets', '503'))).toEqual(['Retry-After', 'X-Request-Id']);
    });

    it('lets every POST be retried with Idempotency-Key, and marks the replays', () => {
      const posts = CONTRACT_ROUTES.filter(({ route }) => route.method === 'POST');
      expect(posts.map(({ name }) => name)).toContain('createPet');
      for (const { name, route } of posts) {
        // A new POST without `idempotent(...)` in its router fails here.
        expect((route.metadata as TRouteMetadata | undefined)?.idempotent, name).toBe(true);
        const operation = operations.find(({ operation }) => operation.operationId === name);
        expect(operation?.operation.parameters).toContainEqual(
          expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
        );
        expect(Object.keys(operation?.operation.responses ?? {})).toEqual(
          expect.arrayContaining(['409', '422']),
        );
      }
      expect(headersOf('createPet', '201')['Idempotent-Replayed']?.required).toBe(false);
      expect(headersOf('createPet', '400')).toHaveProperty('Idempotent-Replayed');
      for (const status of ['401', '413', '422', '429', '500']) {
        expect(headersOf('createPet', status)).not.toHaveProperty('Idempotent-Replayed');
      }
      // GETs ignore the header: not documented there.
      const listPets = operations.find(({ operation }) => operation.operationId === 'listPets');
      expect(listPets?.operation.parameters?.map((parameter) => parameter.name)).not.toContain(
        'Idempotency-Key',
      );
    });

    it('documents conditional requests: ETag on every GET and PATCH 200, 304 on every GET, 412 on updatePet', () => {
      const gets = CONTRACT_ROUTES.filter(({ route }) => route.method === 'GET');
      expect(gets.length).toBeGreaterThanOrEqual(8);
      for (const { name } of gets) {
        const operation = operations.find(({ operation }) => operation.operationId === name);
        expect(operation?.operation.parameters, name).toContainEqual(
          expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
        );
        expect(headersOf(name, '200').ETag?.required, name).toBe(true);
        // A 304 comes after the limiter: its headers, the ETag, and no body.
        expect(required(headersOf(name, '304')), name).toEqual(
          expect.arrayContaining(['ETag', 'RateLimit', 'X-RateLimit-Remaining', 'X-Request-Id']),
        );
      }
      for (const { name } of CONTRACT_ROUTES.filter(({ route }) => route.method === 'PATCH')) {
        expect(headersOf(name, '200').ETag?.required, name).toBe(true);
      }
      const updatePet = operations.find(({ operation }) => operation.operationId === 'updatePet');
      expect(updatePet?.operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
      );
      expect(Object.keys(updatePet?.operation.responses ?? {})).toContain('412');
      expect(headersOf('createPet', '201')).not.toHaveProperty('ETag');
    });

    it('says of every text field of a request body what the API says of blank text', () => {
      type TJsonSchema = {
        $ref?: string;
        type?: string;
        pattern?: string;
        minLength?: number;
        maxLength?: number;
        properties?: Record<string, TJsonSchema>;
      };
      type TBodied = { requestBody?: { content?: Record<string, { schema?: TJsonSchema }> } };
      const schemas = (document.components?.schemas ?? {}) as Record<string, TJsonSchema>;
      const resolved = (schema: TJsonSchema): TJsonSchema =>
        schema.$ref ? resolved(schemas[schema.$ref.split('/').pop() ?? ''] ?? {}) : schema;
      const documentAccepts = (schema: TJsonSchema, text: string): boolean =>
        text.length >= (schema.minLength ?? 0) &&
        text.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY) &&
        (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(text));
      /** The schema under optional, nullable, default and refinements: what decides its type. */
      const base = (schema: z.ZodTypeAny): z.ZodTypeAny =>
        schema instanceof z.ZodOptional || schema instanceof z.ZodNullable
          ? base(schema.unwrap())
          : schema instanceof z.ZodDefault
            ? base(schema.removeDefault())
            : schema instanceof z.ZodEffects
              ? base(schema.innerType())
              : schema;
      const BLANKS = ['', ' ', '\u3000', '\t\n', '\u00a0'];
      const verdicts: string[] = [];
      const compare = (label: string, zod: z.ZodTypeAny, json: TJsonSchema) => {
        const shape = base(zod);
        if (shape instanceof z.ZodObject) {
          for (const [field, property] of Object.entries(shape.shape as z.ZodRawShape)) {
            compare(`${label}.${field}`, property, resolved(json).properties?.[field] ?? {});
          }
          return;
        }
        // A text field, not a URL, an address or a code: it takes a word.
        if (!(shape instanceof z.ZodString) || !zod.safeParse('Rex').success) {
          return;
        }
        for (const text of [...BLANKS, ' Rex ']) {
          verdicts.push(
            `${label} ${JSON.stringify(text)}: API ${zod.safeParse(text).success} document ${documentAccepts(resolved(json), text)}`,
          );
        }
      };
      for (const { name, route } of CONTRACT_ROUTES) {
        const body = 'body' in route ? (route.body as z.ZodTypeAny) : undefined;
        const operation = operations.find((each) => each.operation.operationId === name)
          ?.operation as TBodied | undefined;
        const schema = operation?.requestBody?.content?.['application/json']?.schema;
        if (body instanceof z.ZodType && schema) {
          compare(name, body, schema);
        }
      }
      // The fields that must say something, and those a blank leaves empty, are all here.
      const fields = [...new Set(verdicts.map((verdict) => verdict.split(' ')[0]))];
      expect(fields).toEqual(
        expect.arrayContaining([
          'createPet.name',
          'createPet.breed',
          'updatePet.specialNeedsNote',
          'placeOrder.adopter.name',
          'placeOrder.message',
          'addOrderNote.text',
          'askAdopter.text',
          'declineOrder.note',
          'createWebhookEndpoint.description',
        ]),
      );
      const disagreements = verdicts.filter((verdict) => {
        const [, api, documented] = /API (\w+) document (\w+)$/.exec(verdict) ?? [];
        return api !== documented;
      });
      expect(disagreements).toEqual([]);
    });

    it('bounds every integer and string of a header', () => {
      for (const { operation } of operations) {
        for (const response of Object.values(operation.responses)) {
          for (const header of Object.values(response.headers ?? {})) {
            expect(
              header.schema?.type === 'integer'
                ? 'maximum' in header.schema && 'format' in header.schema
                : 'maxLength' in (header.schema ?? {}),
            ).toBe(true);
          }
        }
      }
    });
  });
});
