import { createHash } from 'node:crypto';
import { PetsRepository, UnknownCategoryError } from '@pets/api/pets-repository';
import { nextPageLink } from '@pets/contract/rules';
import { MAX_ID, PETS_CURSOR, type TPetStatus } from '@pets/contract/schemas';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The floor: the least a server must do to answer the benchmark's requests the way the API does,
 * on the same Fastify and `pg` versions. Per request: the SHA-256 of the bearer key looked up in a
 * map (filled from the database on the first sight of a key, as the API's cache is in its steady
 * state), the API's own statements and row mapping (its pets repository, `@pets/api/pets-repository`)
 * on a pool of the same size, the same JSON and Link/Location headers out.
 * No rate limiting, logging, validation library or framework beyond Fastify: whatever the API does
 * beyond this shows up as its distance to the floor.
 *
 * Environment: DATABASE_URL, PORT, HOST (default 127.0.0.1), DATABASE_POOL_SIZE (default 10),
 * MEDIA_BASE_URL (the address of photo files, as the API's).
 */

const STATUSES = new Set(['available', 'pending', 'sold']);

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
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return reply.code(400).send(error(400, 'invalid_request', 'limit must be 1 to 100'));
  }
  if (status !== undefined && !STATUSES.has(status)) {
    return reply.code(400).send(error(400, 'invalid_request', 'unknown status'));
  }
  const categoryId = categoryText === undefined ? undefined : idFromText(categoryText);
  if (categoryId === null) {
    return reply.code(400).send(error(400, 'invalid_request', 'bad categoryId'));
  }
  const filters = { status: status as TPetStatus | undefined, categoryId };
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
    // The query's keys in the order the API's schema gives them, so the links are identical.
    reply.header('link', nextPageLink('/v1/pets', { limit, status, categoryId }, page.nextCursor));
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
