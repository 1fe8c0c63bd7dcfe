import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { startTestApi, useTestApi } from './api-harness';
import type { paths } from './generated/openapi';

/**
 * A client generated from the committed OpenAPI document by a tool nobody here wrote, used as an
 * integrator would use it: openapi-typescript with its default options writes the types
 * (src/test/generated/openapi.d.ts, checked by strict `tsc` with the rest of the API's sources),
 * openapi-fetch sends the requests, to the base address the document names.
 */
const require_ = createRequire(__filename);
const DOCUMENT_PATH = require_.resolve('@pets/contract/openapi.json');
const GENERATED_PATH = join(__dirname, 'generated', 'openapi.d.ts');
const document = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as {
  servers: { url: string; description: string }[];
};

/** `pnpm --filter @pets/api client:generate` writes the types: the same command, to stdout. */
const generate = (): string => {
  const packageJson = require_.resolve('openapi-typescript/package.json');
  const cli = join(dirname(packageJson), 'bin', 'cli.js');
  return execFileSync(process.execPath, [cli, DOCUMENT_PATH], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
};

type TListPetsQuery = NonNullable<paths['/pets']['get']['parameters']['query']>;
type TResponse = { response: Response };

/** The production server of the document, moved to the test API: its path is the base, `/v1`. */
const baseUrlFor = (apiBaseUrl: string): string => {
  const production = document.servers.find((server) => server.description === 'Production');
  return new URL(new URL(production?.url ?? '').pathname, apiBaseUrl).href;
};

/** The `rel="next"` target of a list response, as an integrator reads RFC 8288 without a library. */
const nextLink = (response: Response, base: string): URL | undefined => {
  const target = /<([^>]*)>\s*;\s*rel="?next"?/.exec(response.headers.get('link') ?? '')?.[1];
  return target === undefined ? undefined : new URL(target, base);
};

/** Sends a request again after `Retry-After` seconds while it is answered 429 (at most 3 times). */
const honouringRetryAfter = async <T extends TResponse>(
  send: () => Promise<T>,
  seen: number[] = [],
): Promise<T> => {
  let result = await send();
  for (let attempt = 0; attempt < 3 && result.response.status === 429; attempt += 1) {
    const seconds = Number(result.response.headers.get('retry-after'));
    seen.push(seconds);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    result = await send();
  }
  return result;
};

describe('the client generated from openapi.json (openapi-typescript + openapi-fetch)', () => {
  it('is what openapi-typescript writes today from the committed document', () => {
    expect(generate()).toBe(readFileSync(GENERATED_PATH, 'utf8'));
  });

  describe('against the API', () => {
    const api = useTestApi();

    const clientFor = async (key?: string) => {
      const base = baseUrlFor(api.baseUrl);
      const client = createClient<paths>({
        baseUrl: base,
        headers: { authorization: `Bearer ${key ?? (await api.createKey())}` },
      });
      return { base, client };
    };

    it('pages through every animal by following Link, and filters', async () => {
      const [dogs, cats] = await Promise.all(
        ['Dogs', 'Cats'].map((name) => api.prisma.category.create({ data: { name } })),
      );
      const statuses = ['available', 'pending', 'sold'] as const;
      await api.prisma.pet.createMany({
        data: Array.from({ length: 45 }, (_, index) => ({
          name: `Animal ${index}`,
          categoryId: (index % 2 ? dogs : cats)?.id ?? 0n,
          status: statuses[index % 3],
        })),
      });
      const { base, client } = await clientFor();
      expect(base).toBe(`${api.baseUrl}/v1`);

      const seen: number[] = [];
      let query: TListPetsQuery | undefined = { limit: 20 };
      let pages = 0;
      while (query) {
        const { data, response } = await client.GET('/pets', { params: { query } });
        expect(response.status).toBe(200);
        seen.push(...(data ?? []).map((pet) => pet.id));
        pages += 1;
        const next = nextLink(response, base);
        // The link names the same operation under the same base address.
        expect(next?.pathname ?? '/v1/pets').toBe('/v1/pets');
        query = next
          ? {
              limit: Number(next.searchParams.get('limit')),
              cursor: next.searchParams.get('cursor') ?? '',
            }
          : undefined;
      }
      expect(pages).toBe(3);
      expect(seen).toHaveLength(45);
      expect([...seen].sort((a, b) => b - a)).toEqual(seen);

      const pending: string[] = [];
      let filtered: TListPetsQuery | undefined = { status: 'pending', limit: 4 };
      while (filtered) {
        const { data, response }: { data?: { status: string }[]; response: Response } =
          await client.GET('/pets', { params: { query: filtered } });
        pending.push(...(data ?? []).map((pet) => pet.status));
        const next = nextLink(response, base);
        filtered = next
          ? { status: 'pending', limit: 4, cursor: next.searchParams.get('cursor') ?? '' }
          : undefined;
      }
      expect(pending).toEqual(Array(15).fill('pending'));

      const { data: ofDogs } = await client.GET('/pets', {
        params: { query: { categoryId: Number(dogs?.id), limit: 100 } },
      });
      expect(ofDogs).toHaveLength(22);
      expect(ofDogs?.every((pet) => pet.categoryId === Number(dogs?.id))).toBe(true);
    });

    it('lists categories and orders, creates an animal and fetches it back by id', async () => {
      await api.prisma.category.create({ data: { name: 'Rabbits' } });
      const { base, client } = await clientFor();
      const categories = await client.GET('/categories');
      expect(categories.response.status).toBe(200);
      const category = categories.data?.find((each) => each.name === 'Rabbits');
      expect(category).toBeDefined();

      const orders = await client.GET('/store/orders', { params: { query: { limit: 10 } } });
      expect(orders.response.status).toBe(200);
      expect(orders.data).toEqual([]);

      // `status` is optional: the document gives no `default`, which would make it required.
      const created = await client.POST('/pets', {
        body: { name: 'Pickles', categoryId: category?.id ?? 0 },
      });
      expect(created.response.status).toBe(201);
      expect(created.data).toMatchObject({ name: 'Pickles', status: 'available' });
      const id = created.data?.id ?? 0;
      expect(new URL(created.response.headers.get('location') ?? '', base).href).toBe(
        `${base}/pets/${id}`,
      );

      // The replacement of the deprecated getPet: listPets with the `id` filter.
      const byId = await client.GET('/pets', { params: { query: { id: String(id) } } });
      expect(byId.response.status).toBe(200);
      expect(byId.data).toEqual([created.data]);

      // A conditional GET with the page's ETag: 304 while nothing changed.
      const etag = byId.response.headers.get('etag') ?? '';
      const again = await client.GET('/pets', {
        params: { query: { id: String(id) }, header: { 'If-None-Match': etag } },
      });
      expect(again.response.status).toBe(304);
    });

    it('registers a webhook endpoint, sends it a test event, rotates its secret and deletes it', async () => {
      const { client } = await clientFor();
      const created = await client.POST('/webhook-endpoints', {
        body: { url: 'https://partner.example/hooks/pets', events: ['pet.created'] },
      });
      expect(created.response.status).toBe(201);
      expect(created.data?.secret).toMatch(/^whsec_/);
      const endpointId = created.data?.id ?? '';
      const listed = await client.GET('/webhook-endpoints');
      expect(listed.data?.map((endpoint) => endpoint.id)).toEqual([endpointId]);
      const path = { params: { path: { endpointId } } };
      const tested = await client.POST('/webhook-endpoints/{endpointId}/test', path);
      expect(tested.response.status).toBe(202);
      const deliveries = await client.GET('/webhook-endpoints/{endpointId}/deliveries', path);
      expect(deliveries.data?.map((delivery) => delivery.id)).toContain(tested.data?.id);
      const rotated = await client.POST('/webhook-endpoints/{endpointId}/rotate-secret', path);
      expect(rotated.data?.secret).toMatch(/^whsec_/);
      expect(rotated.data?.secret).not.toBe(created.data?.secret);
      const deleted = await client.DELETE('/webhook-endpoints/{endpointId}', path);
      expect(deleted.response.status).toBe(204);
      const gone = await client.GET('/webhook-endpoints/{endpointId}', path);
      expect(gone.response.status).toBe(404);
    });
  });

  it('waits Retry-After seconds when answered 429, then gets through', async () => {
    // Windows of 5 s instead of a minute, so that honouring Retry-After takes seconds.
    const limited = await startTestApi({ rateLimit: { minuteMs: 5_000 } });
    try {
      const client = createClient<paths>({
        baseUrl: baseUrlFor(limited.baseUrl),
        headers: { authorization: `Bearer ${await limited.createKey({ plan: 'free' })}` },
      });
      // The Free plan's 60 requests of the window, sent at once so they land in one window.
      const burst = await Promise.all(Array.from({ length: 60 }, () => client.GET('/categories')));
      expect(burst.every((result) => result.response.status === 200)).toBe(true);
      const waited: number[] = [];
      const result = await honouringRetryAfter(() => client.GET('/categories'), waited);
      expect(waited.length).toBeGreaterThanOrEqual(1);
      expect(waited.every((seconds) => seconds >= 1 && seconds <= 5)).toBe(true);
      expect(result.response.status).toBe(200);
      expect(result.data).toEqual([]);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
