import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { CREATE_PET_SQL, cursorId, listPetsSql } from './sql';

/**
 * The floor: the least a server must do to answer the benchmark's requests the way the API does,
 * on the same Fastify and `pg` versions. Per request: the SHA-256 of the bearer key looked up in a
 * map (filled from the database on the first sight of a key, as the API's cache is in its steady
 * state), the API's SQL on a pool of the same size, the same JSON and Link/Location headers out.
 * No rate limiting, logging, validation library or framework beyond Fastify: whatever the API does
 * beyond this shows up as its distance to the floor.
 *
 * Environment: DATABASE_URL, PORT, HOST (default 127.0.0.1), DATABASE_POOL_SIZE (default 10).
 */

const STATUSES = new Set(['available', 'pending', 'sold']);

type TPetRow = { id: string; name: string; category_id: string; status: string };
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

const toPet = (row: TPetRow) => ({
  id: Number(row.id),
  name: row.name,
  categoryId: Number(row.category_id),
  status: row.status,
});

const app = Fastify({ logger: false });

app.get<{ Querystring: Record<string, string | undefined> }>('/v1/pets', async (request, reply) => {
  if (!(await authenticate(request.headers.authorization))) {
    return reply.code(401).send(error(401, 'unauthorized', 'Invalid API key.'));
  }
  const { limit: limitText = '20', status, cursor } = request.query;
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return reply.code(400).send(error(400, 'invalid_request', 'limit must be 1 to 100'));
  }
  if (status !== undefined && !STATUSES.has(status)) {
    return reply.code(400).send(error(400, 'invalid_request', 'unknown status'));
  }
  let below: string | null = null;
  if (cursor !== undefined) {
    below = cursorId(cursor);
    if (below === null) {
      return reply.code(400).send(error(400, 'invalid_request', 'bad cursor'));
    }
  }
  const params: (string | number)[] = [];
  if (status !== undefined) {
    params.push(status);
  }
  if (below !== null) {
    params.push(below);
  }
  params.push(limit + 1);
  const sql = listPetsSql({ hasStatus: status !== undefined, hasCursor: below !== null });
  const { rows } = await pool.query<TPetRow>(sql, params);
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  if (rows.length > limit && last) {
    const next = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}) });
    next.set('cursor', Buffer.from(`v1:${last.id}`).toString('base64url'));
    reply.header('link', `</v1/pets?${next.toString()}>; rel="next"`);
  }
  return items.map(toPet);
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
      !Number.isSafeInteger(categoryId) ||
      typeof status !== 'string' ||
      !STATUSES.has(status)
    ) {
      return reply.code(400).send(error(400, 'invalid_request', 'invalid pet'));
    }
    const { rows } = await pool.query<TPetRow>(CREATE_PET_SQL, [
      name.trim(),
      categoryId as number,
      status,
    ]);
    const pet = toPet(rows[0] as TPetRow);
    reply.header('location', `/v1/pets/${pet.id}`);
    return reply.code(201).send(pet);
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
