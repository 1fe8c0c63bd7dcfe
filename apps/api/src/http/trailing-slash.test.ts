import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, useTestApi } from '../test/api-harness';

// One rule for every path (docs/decisions.md): a trailing slash is ignored, so `/v1/pets/` is
// `/v1/pets`, authenticated, rate limited and answered exactly like it.

const api = useTestApi();
let key: string;
let categoryId: number;
let petId: number;

beforeAll(async () => {
  key = await api.createKey({ plan: 'pro' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Parrots' } })).id);
  for (const name of ['Polly', 'Kiwi']) {
    petId = Number(
      (await api.prisma.pet.create({ data: { name, categoryId: BigInt(categoryId) } })).id,
    );
  }
});

const expectLimited = (response: Response) => {
  expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
};

describe('a trailing slash is routed like the path without it', () => {
  it.each([
    ['listPets', '/v1/pets/'],
    ['listPets with a query', '/v1/pets/?limit=1'],
    ['getPet', () => `/v1/pets/${petId}/`],
    ['listOrders', '/v1/store/orders/'],
    ['listCategories', '/v1/categories/'],
  ])('%s: the same answer as without the slash', async (_label, path) => {
    const withSlash = typeof path === 'function' ? path() : path;
    const [slashed, plain] = await Promise.all([
      api.fetch(withSlash, { key }),
      api.fetch(withSlash.replace(/\/(\?|$)/, '$1'), { key }),
    ]);
    expect(slashed.status).toBe(200);
    expectLimited(slashed);
    expect(await slashed.json()).toEqual(await plain.json());
    for (const header of ['deprecation', 'sunset', 'allow']) {
      expect(slashed.headers.get(header)).toBe(plain.headers.get(header));
    }
  });

  it('the next-page link of a slashed list is the canonical one', async () => {
    const response = await api.fetch('/v1/pets/?limit=1', { key });
    expect(response.headers.get('link')).toMatch(/^<\/v1\/pets\?[^>]+>; rel="next"$/);
  });

  it('createPet: 201', async () => {
    const response = await api.fetch(
      '/v1/pets/',
      json({ name: 'Rio', categoryId }, { key } as RequestInit),
    );
    expect(response.status).toBe(201);
    expectLimited(response);
  });

  it.each(['/v1/pets/', '/v1/pets/1/', '/v1/store/orders/', '/v1/categories/'])(
    '%s without a key: 401 with rate-limit headers',
    async (path) => {
      const response = await api.fetch(path, { key: null });
      expect(response.status).toBe(401);
      expect(await errorBody(response)).toMatchObject({ code: 'unauthorized', status: 401 });
      expectLimited(response);
    },
  );

  it('a wrong method on a slashed path: the 405 of the path, rate limited', async () => {
    const response = await api.fetch('/v1/pets/', { key, method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.headers.get('deprecation')).toBeNull();
    expectLimited(response);
  });

  it('an unknown slashed path: 404, rate limited', async () => {
    const response = await api.fetch('/v1/kittens/', { key });
    expect(response.status).toBe(404);
    expect(await errorBody(response)).toMatchObject({ code: 'not_found', status: 404 });
    expectLimited(response);
  });

  it.each(['/v1/pets//', '/v1/pets/1//', '/v1//pets'])(
    '%s (a slash too many): 404, rate limited, not announced as getPet',
    async (path) => {
      const response = await api.fetch(path, { key });
      expect(response.status).toBe(404);
      expect(await errorBody(response)).toMatchObject({ code: 'not_found', status: 404 });
      expect(response.headers.get('deprecation')).toBeNull();
      expectLimited(response);
    },
  );

  it('outside /v1 too: /healthz/ is /healthz', async () => {
    expect((await api.fetch('/healthz/', { key: null })).status).toBe(200);
  });
});
