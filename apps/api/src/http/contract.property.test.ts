import { fc, test } from '@fast-check/vitest';
import {
  buildOpenApiDocument,
  CONTRACT_ROUTES,
  ERROR_STATUS,
  nextCursorOf,
  type TNamedRoute,
  ZError,
} from '@pets/contract';
import { beforeAll, describe, expect } from 'vitest';
import type { z } from 'zod';
import { json, useTestApi } from '../test/api-harness';

// The property over the whole HTTP surface: whatever a client sends, generated from
// the contract's parameters and broken in every way we could think of, the API answers without a
// 5xx, with either the error format (status equal to the HTTP status, a documented code) or a
// success body valid for the operation, and every /v1 response carries X-Request-Id and the
// X-RateLimit-* headers; and every status it answers is one the OpenAPI document lists for the
// operation the request reached. A fixed seed in the default suite; FUZZ_RUNS (and FUZZ_SEED) for a
// longer run: `FUZZ_RUNS=20000 pnpm exec vitest run src/http/contract.property.test.ts`.
// fast-check prints the seed and the shrunk request of any failure.

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

// Its bad keys all come from one address: without a larger failed-authentication budget, that
// address would soon get 429 for every credentialed request and the rest of the run would test
// only that (the budget itself is tested in auth/key-guessing.security.test.ts).
const api = useTestApi({ env: { AUTH_FAILURE_LIMIT: '1000000' } });
/** An Enterprise key whose limits the run cannot reach: the limiter must not answer everything. */
let key = '';
/** A key from the other environment: always 401. */
let stagingKey = '';
/** The store's key: the staff operations answer it, rather than 403. */
let staffKey = '';
let categoryId = 1;
let petId = 1;
let orderId = 1;
let cursor = '';

beforeAll(async () => {
  key = await api.createKey({
    plan: 'enterprise',
    rateLimitPerMinute: 10_000_000,
    rateLimitPerDay: 100_000_000,
  });
  stagingKey = await api.createKey({ environment: 'staging' });
  staffKey = await api.createKey({
    role: 'staff',
    plan: 'enterprise',
    rateLimitPerMinute: 10_000_000,
    rateLimitPerDay: 100_000_000,
  });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Hamsters' } })).id);
  for (const name of ['Nibbles', 'Pip', 'Biscuit']) {
    petId = Number(
      (await api.prisma.pet.create({ data: { name, categoryId: BigInt(categoryId) } })).id,
    );
  }
  const page = await api.fetch('/v1/pets?limit=1', { key });
  cursor = nextCursorOf(page.headers.get('link')) ?? 'none';
  const order = await api.fetch(
    '/v1/store/orders',
    json({ petId, adopter: { name: 'Ada Lovelace', email: 'ada@example.org' } }, { key }),
  );
  expect(order.status).toBe(201);
  orderId = ((await order.json()) as { id: number }).id;
});

/** Text of every kind: ASCII, any Unicode, and what PostgreSQL or parsers choke on. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDC00x',
    '🐶',
    'é',
    '%',
    '%FF',
    '../',
    '1e3',
    '0x10',
    '-1',
    '9007199254740992',
    '1'.repeat(101),
    'null',
    '{}',
    "'; drop table pets; --",
  ),
);

/** Values a query parameter or a path segment may take: valid ones, near misses, anything. */
const idText = fc.oneof(
  fc.constantFrom('1', '42', '0', '-1', '1.5', ' 7', '9007199254740991', '9007199254740992'),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.constant('__pet__'),
  text,
);
const queryValue = (valid: string[]) => fc.oneof(fc.constantFrom(...valid), idText, text);

const QUERY_VALUES: Record<string, fc.Arbitrary<string>> = {
  limit: queryValue(['1', '20', '100', '101', '0']),
  status: queryValue(['available', 'pending', 'sold', 'placed', 'Available']),
  categoryId: queryValue(['__category__']),
  id: queryValue(['1,2,3', '__pet__', '1,,2', ',', '1'.repeat(2000)]),
  cursor: queryValue(['__cursor__', 'djE', '']),
  other: text,
};

const query = fc
  .array(fc.tuple(fc.constantFrom(...Object.keys(QUERY_VALUES)), fc.nat()), { maxLength: 4 })
  .chain((names) =>
    fc
      .tuple(...names.map(([name]) => QUERY_VALUES[name] as fc.Arbitrary<string>))
      .map((values) =>
        names.map(([name], index) => [name, values[index] ?? ''] as [string, string]),
      ),
  );

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) as its CESU-8 bytes. */
const encodeSegment = (value: string): string => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

/** A path segment as sent: percent-encoded, or raw bytes a client could put there. */
const segment = fc.oneof(
  idText.map(encodeSegment),
  fc.constantFrom('%FF', '%C0%AF', '%', '%2F', '%00', '..', '', 'pets', 'orders'),
);

/** Every operation's path, its parameters valid or not. */
const operationPath = fc.oneof(
  fc.constantFrom('/v1/me', '/v1/store/orders/__order__', '/v1/pets/__pet__/photos/order'),
  segment.map((id) => `/v1/pets/${id}/photos`),
  fc.tuple(segment, segment).map(([id, photo]) => `/v1/pets/${id}/photos/${photo}`),
  segment.map((id) => `/v1/store/orders/${id}`),
  fc
    .tuple(
      fc.oneof(fc.constant('__order__'), segment),
      fc.constantFrom('approve', 'complete', 'cancel'),
    )
    .map(([id, action]) => `/v1/store/orders/${id}/${action}`),
);

const path = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('/v1/pets', '/v1/pets/', '/v1/store/orders', '/v1/categories'),
  },
  { weight: 4, arbitrary: segment.map((id) => `/v1/pets/${id}`) },
  { weight: 4, arbitrary: operationPath },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/v1', '/v1/', '/v1/openapi.json', '/v1//pets', '/v2/pets'),
  },
  {
    weight: 1,
    arbitrary: fc.array(segment, { maxLength: 3 }).map((parts) => `/v1/${parts.join('/')}`),
  },
);

/** Bodies: the contract's NewPet, with each field valid, broken or missing, or not JSON at all. */
const newPet = fc.record(
  {
    name: fc.oneof(text, fc.constantFrom('Rex', 'x'.repeat(100), 'x'.repeat(101)), fc.integer()),
    categoryId: fc.oneof(
      fc.constant('__category__'),
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, -1, 9007199254740992, '1', null),
    ),
    status: fc.oneof(fc.constantFrom('available', 'pending', 'sold', 'adopted', ''), text),
    extra: fc.anything({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  { weight: 5, arbitrary: newPet.map((pet) => JSON.stringify(pet)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: text },
  {
    weight: 1,
    arbitrary: fc.constantFrom('{"name":', '{"__proto__":{"x":1}}', 'x'.repeat(17_000)),
  },
);

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  '/',
  'json',
  'application/json; charset',
);

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant('__key__') },
  { weight: 2, arbitrary: fc.constant('__staff__') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      '__staging__',
      'Bearer pets_live_notAKeyAtAll000000000000000000',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      'bearer __key__',
    ),
  },
);

const request = fc.record({
  method: fc.constantFrom(
    'GET',
    'GET',
    'GET',
    'POST',
    'POST',
    'HEAD',
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
    'QUERY',
    'PROPFIND',
    'SEARCH',
  ),
  path,
  query,
  body: fc.option(body, { nil: undefined }),
  contentType,
  authorization,
  requestId: fc.option(fc.stringMatching(/^[A-Za-z0-9._:-]{0,140}$/), { nil: undefined }),
  /** Now and then headers over the server's limit (16 KiB): a 431 from any operation. */
  padding: fc.option(fc.constantFrom(200, 17_000), { nil: undefined, freq: 20 }),
});

type TRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** Placeholders stand for values known only once the database is seeded. */
const fill = (value: string): string =>
  value
    .replaceAll('__pet__', String(petId))
    .replaceAll('__order__', String(orderId))
    .replaceAll('__staff__', `Bearer ${staffKey}`)
    .replaceAll('__category__', String(categoryId))
    .replaceAll('__cursor__', cursor)
    .replaceAll('__staging__', `Bearer ${stagingKey}`)
    .replaceAll('__key__', key);

const targetOf = (generated: TRequest): string => {
  const search = new URLSearchParams(
    generated.query.map(([name, value]) => [name, fill(value)] as [string, string]),
  ).toString();
  return `${fill(generated.path)}${search ? `?${search}` : ''}`;
};

/** The OpenAPI document's statuses of each operation, by operationId. */
const documented = (() => {
  const document = buildOpenApiDocument();
  const statuses = new Map<string, string[]>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, { operationId: string }>)) {
      const { operationId, responses } = operation as { operationId: string; responses: object };
      statuses.set(operationId, Object.keys(responses));
    }
  }
  return statuses;
})();

/** Each route's path as a pattern the server's router would match (a trailing slash ignored). */
const ROUTE_PATTERNS = CONTRACT_ROUTES.map((named) => ({
  ...named,
  pattern: new RegExp(`^${named.route.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
}));

/**
 * The operation a request reached, if any: HEAD is GET without its body. A route with a literal
 * segment (`photos/order`) wins over one with a parameter there, as in the server's router.
 */
const operationOf = (method: string, pathname: string): TNamedRoute | undefined => {
  const asMethod = method === 'HEAD' ? 'GET' : method;
  const parametersOf = ({ route }: TNamedRoute) => route.path.split(':').length;
  return ROUTE_PATTERNS.filter(
    ({ route, pattern }) => route.method === asMethod && pattern.test(pathname),
  ).sort((a, b) => parametersOf(a) - parametersOf(b))[0];
};

/** The success body schema an operation declares for a status, when it has one. */
const successSchema = (named: TNamedRoute, status: number): z.ZodTypeAny | undefined => {
  const schema = (named.route.responses as Record<number, unknown>)[status];
  // A zod schema (the contract's zod, not necessarily this file's copy), not ts-rest's noBody.
  return typeof (schema as { safeParse?: unknown } | undefined)?.safeParse === 'function'
    ? (schema as z.ZodTypeAny)
    : undefined;
};

describe('any request over HTTP', () => {
  test.prop([request], { numRuns: RUNS, seed: SEED, endOnFailure: true })(
    'never a 5xx; the error format or a valid success body; the /v1 headers',
    async (generated) => {
      const target = targetOf(generated);
      const headers: Record<string, string> = {};
      const auth =
        generated.authorization === undefined ? undefined : fill(generated.authorization);
      if (auth !== undefined) {
        headers.authorization = auth;
      }
      if (generated.contentType !== undefined) {
        headers['content-type'] = generated.contentType;
      }
      if (generated.requestId !== undefined) {
        headers['x-request-id'] = generated.requestId;
      }
      if (generated.padding !== undefined) {
        headers['x-padding'] = 'p'.repeat(generated.padding);
      }
      const sendsBody = generated.body !== undefined && !['GET', 'HEAD'].includes(generated.method);
      const response = await fetch(`${api.baseUrl}${target}`, {
        method: generated.method,
        headers,
        ...(sendsBody ? { body: fill(generated.body ?? '') } : {}),
      });
      const raw = await response.text();

      expect(response.status, `${generated.method} ${target} → ${raw}`).toBeLessThan(500);
      expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      if (
        generated.requestId &&
        generated.requestId.length > 0 &&
        generated.requestId.length <= 128 &&
        response.status !== 431
      ) {
        expect(response.headers.get('x-request-id')).toBe(generated.requestId);
      }
      // What the server received: fetch resolves dot segments (`/v1/..` is `/`).
      const sent = new URL(`${api.baseUrl}${target}`);
      const isV1 = /^\/v1(\/|$)/.test(sent.pathname);
      const operation = operationOf(generated.method, sent.pathname);
      if (operation) {
        expect(
          documented.get(operation.name),
          `${response.status} from ${operation.name} (${generated.method} ${target}) → ${raw}`,
        ).toContain(String(response.status));
      }
      // Node's parser refuses oversized headers before any route or limit: no rate-limit headers.
      if (isV1 && response.status !== 431) {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          expect(response.headers.get(name), `${name} on ${generated.method} ${target}`).toMatch(
            /^\d+$/,
          );
        }
      }
      if (generated.method === 'HEAD' || response.status === 204) {
        expect(raw).toBe('');
        return;
      }
      const parsed: unknown = JSON.parse(raw);
      if (response.status >= 400) {
        const error = ZError.parse(parsed);
        expect(error.status).toBe(response.status);
        expect(ERROR_STATUS[error.code]).toBe(response.status);
        expect(error.message).not.toMatch(/FST_|Expected|received|Invalid enum|Required/);
        return;
      }
      if (sent.pathname.startsWith('/v1/openapi.json')) {
        expect(parsed).toMatchObject({ openapi: expect.any(String) });
        return;
      }
      expect(operation, `a success for ${generated.method} ${target}`).toBeDefined();
      const schema = operation && successSchema(operation, response.status);
      expect(schema, `a body for ${response.status} from ${operation?.name}`).toBeDefined();
      schema?.parse(parsed);
    },
    120_000,
  );
});
