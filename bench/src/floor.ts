import { createHash } from 'node:crypto';
import { nextPageLink } from '@pets/contract/rules';
import {
  MAX_ID,
  nameSearchWords,
  PETS_CURSOR,
  type TPetAge,
  type TPetSex,
  type TPetSize,
  type TPetStatus,
  ZPetAge,
  ZPetSex,
  ZPetSize,
} from '@pets/contract/schemas';
import { IdempotencyRepository } from '@pets/store/idempotency.repository';
import { OrdersRepository, PetNotAvailableError } from '@pets/store/orders.repository';
import { PetsRepository, UnknownCategoryError } from '@pets/store/pets.repository';
import { requestHash } from '@pets/store/request-hash';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The floor: the least a server must do to answer the benchmark's requests the way the API does,
 * on the same Fastify and `pg` versions. Per request: the SHA-256 of the bearer key looked up in a
 * map (filled from the database on the first sight of a key, as the API's cache is in its steady
 * state), the API's own statements and row mapping (its pets repository, `@pets/store/pets.repository`)
 * on a pool of the same size, the same JSON and Link/Location headers out.
 * No rate limiting, logging, validation library or framework beyond Fastify: whatever the API does
 * beyond this shows up as its distance to the floor.
 *
 * Environment: DATABASE_URL, PORT, HOST (default 127.0.0.1), DATABASE_POOL_SIZE (default 10),
 * MEDIA_BASE_URL (the address of photo files, as the API's).
 */

const STATUSES = new Set(['available', 'pending', 'sold']);
/** The profile filters' values (the contract's enums, as data: no validation library here). */
const SEXES = new Set<string>(ZPetSex.options);
const AGES = new Set<string>(ZPetAge.options);
const SIZES = new Set<string>(ZPetSize.options);

type TKey = { id: string; revoked: boolean };

const env = process.env;
const pool = new pg.Pool({
  connectionString: env.DATABASE_URL,
  max: Number(env.DATABASE_POOL_SIZE ?? 10),
  application_name: 'pets-bench-floor',
});
const keys = new Map<string, TKey | null>();

const error = (status: number, code: string, message: string) => ({ code, message, status });

const authenticate = async (authorization: string | undefined): Promise<TKey | null> => {
  if (!authorization?.startsWith('Bearer ')) {
    return null;
  }
  const hash = createHash('sha256').update(authorization.slice(7)).digest('hex');
  let key = keys.get(hash);
  if (key === undefined) {
    const { rows } = await pool.query<{ id: string; revoked_at: Date | null }>(
      'SELECT id, revoked_at FROM api_keys WHERE hash = $1',
      [hash],
    );
    const row = rows[0];
    key = row ? { id: row.id, revoked: row.revoked_at !== null } : null;
    keys.set(hash, key);
  }
  return key && !key.revoked ? key : null;
};

// Photos' addresses from the same MEDIA_BASE_URL as the API's (the bench gives both one).
const pets = new PetsRepository(pool, env.MEDIA_BASE_URL ?? 'http://localhost/media');

/** A decimal id as the API reads it from a query string (1..MAX_ID), or null. */
const idFromText = (text: string): number | null => {
  const id = /^\d{1,16}$/.test(text) ? Number(text) : 0;
  return id >= 1 && id <= MAX_ID ? id : null;
};

const app = Fastify({ logger: false });

app.get<{ Querystring: Record<string, string | undefined> }>('/v1/pets', async (request, reply) => {
  if (!(await authenticate(request.headers.authorization))) {
    return reply.code(401).send(error(401, 'unauthorized', 'Invalid API key.'));
  }
  const { limit: limitText = '20', status, categoryId: categoryText, cursor } = request.query;
  const { sex, age, size, name: nameText } = request.query;
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return reply.code(400).send(error(400, 'invalid_request', 'limit must be 1 to 100'));
  }
  if (
    (status !== undefined && !STATUSES.has(status)) ||
    (sex !== undefined && !SEXES.has(sex)) ||
    (age !== undefined && !AGES.has(age)) ||
    (size !== undefined && !SIZES.has(size))
  ) {
    return reply.code(400).send(error(400, 'invalid_request', 'unknown filter value'));
  }
  const categoryId = categoryText === undefined ? undefined : idFromText(categoryText);
  if (categoryId === null) {
    return reply.code(400).send(error(400, 'invalid_request', 'bad categoryId'));
  }
  // The name search as the API reads it: its words joined by single spaces.
  const name = nameText === undefined ? undefined : nameSearchWords(nameText).join(' ');
  if (name === '') {
    return reply.code(400).send(error(400, 'invalid_request', 'bad name'));
  }
  // In the order of the API's query schema, so that the Link headers are identical.
  const filters = {
    status: status as TPetStatus | undefined,
    categoryId,
    sex: sex as TPetSex | undefined,
    age: age as TPetAge | undefined,
    size: size as TPetSize | undefined,
    name,
  };
  // The cursor carries its list's filters, as the API reads it (the contract's PETS_CURSOR).
  const reading = cursor === undefined ? undefined : PETS_CURSOR.read(cursor, filters);
  if (reading === null || (reading && 'mismatch' in reading)) {
    return reply.code(400).send(error(400, 'invalid_request', 'bad cursor'));
  }
  const page = await pets.list({
    limit,
    ...(reading?.filters ?? filters),
    before: reading?.before,
  });
  if (page.nextCursor) {
    reply.header('link', nextPageLink('/v1/pets', { limit, ...filters }, page.nextCursor));
  }
  return page.items;
});

app.post<{ Body: { name?: unknown; categoryId?: unknown; status?: unknown } }>(
  '/v1/pets',
  async (request, reply) => {
    if (!(await authenticate(request.headers.authorization))) {
      return reply.code(401).send(error(401, 'unauthorized', 'Invalid API key.'));
    }
    const { name, categoryId, status = 'available' } = request.body ?? {};
    if (
      typeof name !== 'string' ||
      name.trim() === '' ||
      typeof categoryId !== 'number' ||
      !Number.isSafeInteger(categoryId) ||
      categoryId < 1 ||
      typeof status !== 'string' ||
      !STATUSES.has(status)
    ) {
      return reply.code(400).send(error(400, 'invalid_request', 'invalid pet'));
    }
    try {
      const pet = await pets.create({
        name: name.trim(),
        categoryId,
        status: status as TPetStatus,
      });
      reply.header('location', `/v1/pets/${pet.id}`);
      return reply.code(201).send(pet);
    } catch (failure) {
      if (failure instanceof UnknownCategoryError) {
        return reply.code(400).send(error(400, 'invalid_request', 'unknown category'));
      }
      throw failure;
    }
  },
);

// The benchmark's other operations, each with the API's own statements: updatePet,
// listOrders, placeOrder, and createPet with an Idempotency-Key.

const orders = new OrdersRepository(pool);
const idempotency = new IdempotencyRepository(pool);
/** The API's defaults (idempotency.types.ts, config.ts): a 60 s lease, kept 24 hours. */
const IDEMPOTENCY_LEASE_MS = 60_000;
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** A key's row id and its display start, as the API's caller has them. */
const keyStart = (authorization: string | undefined): string => (authorization ?? '').slice(7, 21);

app.patch<{ Params: { petId: string }; Body: { name?: unknown } }>(
  '/v1/pets/:petId',
  async (request, reply) => {
    if (!(await authenticate(request.headers.authorization))) {
      return reply.code(401).send(error(401, 'unauthorized', 'Invalid API key.'));
    }
    const id = idFromText(request.params.petId);
    const { name } = request.body ?? {};
    if (id === null || typeof name !== 'string' || name.trim() === '') {
      return reply.code(400).send(error(400, 'invalid_request', 'invalid update'));
    }
    const pet = await pets.update(id, { name: name.trim() });
    return pet ?? reply.code(404).send(error(404, 'not_found', 'no such animal'));
  },
);

app.get<{ Querystring: Record<string, string | undefined> }>(
  '/v1/store/orders',
  async (request, reply) => {
    const key = await authenticate(request.headers.authorization);
    if (!key) {
      return reply.code(401).send(error(401, 'unauthorized', 'Invalid API key.'));
    }
    const limit = Number(request.query.limit ?? '20');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100 || request.query.cursor) {
      return reply.code(400).send(error(400, 'invalid_request', 'limit must be 1 to 100'));
    }
    const page = await orders.list({ apiKeyId: BigInt(key.id) }, { limit });
    if (page.nextCursor) {
      reply.header('link', nextPageLink('/v1/store/orders', { limit }, page.nextCursor));
    }
    return page.items;
  },
);

type TOrderBody = { petId?: unknown; adopter?: { name?: unknown; email?: unknown } };

app.post<{ Body: TOrderBody }>('/v1/store/orders', async (request, reply) => {
  const key = await authenticate(request.headers.authorization);
  if (!key) {
    return reply.code(401).send(error(401, 'unauthorized', 'Invalid API key.'));
  }
  const { petId, adopter } = request.body ?? {};
  if (
    typeof petId !== 'number' ||
    !Number.isSafeInteger(petId) ||
    petId < 1 ||
    typeof adopter?.name !== 'string' ||
    typeof adopter.email !== 'string'
  ) {
    return reply.code(400).send(error(400, 'invalid_request', 'invalid order'));
  }
  const placed = await orders
    .place({
      petId,
      apiKeyId: BigInt(key.id),
      by: keyStart(request.headers.authorization),
      adopter: { name: adopter.name.trim(), email: adopter.email.trim() },
    })
    .catch((refusal: unknown) => {
      if (refusal instanceof PetNotAvailableError) {
        return undefined;
      }
      throw refusal;
    });
  if (placed === undefined) {
    return reply.code(409).send(error(409, 'pet_not_available', 'not available'));
  }
  reply.header('location', `/v1/store/orders/${placed.id}`);
  return reply.code(201).send(placed);
});

/**
 * POST /v1/pets with an Idempotency-Key, as the API's interceptor does it: claim the key (one
 * INSERT ... ON CONFLICT), create, store the response; the plain route above when there is none.
 */
app.addHook('preHandler', async (request, reply) => {
  const header = request.headers['idempotency-key'];
  if (request.method !== 'POST' || request.url !== '/v1/pets' || typeof header !== 'string') {
    return;
  }
  const key = await authenticate(request.headers.authorization);
  if (!key) {
    return reply.code(401).send(error(401, 'unauthorized', 'Invalid API key.'));
  }
  const scope = { apiKeyId: BigInt(key.id), operation: 'createPet', key: header };
  const hash = requestHash({ method: 'POST', route: '/pets', params: {}, body: request.body });
  const now = Date.now();
  const claimed = await idempotency.claim(
    scope,
    hash,
    new Date(now),
    new Date(now + IDEMPOTENCY_LEASE_MS),
  );
  if (claimed === null) {
    return reply.code(409).send(error(409, 'idempotency_key_in_use', 'in use'));
  }
  const { name, categoryId } = (request.body ?? {}) as { name?: unknown; categoryId?: unknown };
  if (typeof name !== 'string' || typeof categoryId !== 'number') {
    return reply.code(400).send(error(400, 'invalid_request', 'invalid pet'));
  }
  const pet = await pets.create({ name: name.trim(), categoryId, status: 'available' });
  const location = `/v1/pets/${pet.id}`;
  const body = JSON.stringify(pet);
  await idempotency.complete(
    claimed,
    {
      status: 201,
      headers: { 'Content-Type': 'application/json; charset=utf-8', Location: location },
      body,
    },
    new Date(Date.now() + IDEMPOTENCY_TTL_MS),
  );
  reply.header('location', location);
  return reply.code(201).type('application/json; charset=utf-8').send(body);
});

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());

app
  .listen({ port: Number(env.PORT ?? 0), host: env.HOST ?? '127.0.0.1' })
  .then((address) => process.stdout.write(`floor listening on ${address}\n`))
  .catch((failure: unknown) => {
    process.stderr.write(`floor could not start: ${String(failure)}\n`);
    process.exit(1);
  });
