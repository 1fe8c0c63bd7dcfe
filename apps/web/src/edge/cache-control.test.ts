import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebConfig } from '../config';
import { PUBLIC_PAGE_CACHE_CONTROL } from './cache-control';
import { createEdgeServer, type TNextHandler } from './edge';

/**
 * The edge's Cache-Control over real HTTP, in front of a stand-in that answers as Next.js does for
 * a page rendered per request (its `no-store` header, set before the body), with the status and
 * cookie a path asks for.
 */
const NEXT_DYNAMIC = 'private, no-cache, no-store, max-age=0, must-revalidate';

const nextLike: TNextHandler = async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://site');
  response.setHeader('Cache-Control', NEXT_DYNAMIC);
  if (url.searchParams.has('cookie')) {
    response.setHeader('Set-Cookie', 'pets_session=sealed; HttpOnly');
  }
  if (url.searchParams.has('missing')) {
    response.statusCode = 404;
  }
  response.setHeader('content-type', 'text/html; charset=utf-8');
  response.end('<p>page</p>');
};

let server: Server;
let site: string;

beforeAll(async () => {
  const config = parseWebConfig({
    WEB_API_KEY: 'pets_live_0123456789abcdefghijklmnopqrstuv',
    SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
  });
  server = createEdgeServer(config, nextLike);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const cacheControlOf = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${site}${path}`, { redirect: 'manual', ...init });
  await response.body?.cancel();
  return response.headers.get('cache-control');
};

describe("the edge's Cache-Control", () => {
  it('lets the browser keep public pages (back/forward cache) but revalidate before reuse', async () => {
    for (const path of ['/', '/?status=all&limit=24', '/pets/42', '/pets/42/apply', '/match']) {
      expect(await cacheControlOf(path), path).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    }
    expect(await cacheControlOf('/', { method: 'HEAD' })).toBe(PUBLIC_PAGE_CACHE_CONTROL);
  });

  it('keeps no-store on the back office, the developer portal and pages reached by a secret link', async () => {
    for (const path of [
      '/staff/sign-in',
      '/staff/applications',
      '/developers',
      '/developers/sign-in',
      '/applications/status/some-token',
      '/saved-searches/confirm/some-token',
    ]) {
      expect(await cacheControlOf(path), path).toBe(NEXT_DYNAMIC);
    }
  });

  it('keeps no-store for a signed-in person, a response that sets a cookie, a refusal and a post', async () => {
    expect(await cacheControlOf('/', { headers: { cookie: 'theme=x; pets_session=sealed' } })).toBe(
      NEXT_DYNAMIC,
    );
    expect(await cacheControlOf('/?cookie=1')).toBe(NEXT_DYNAMIC);
    expect(await cacheControlOf('/pets/42?missing=1')).toBe(NEXT_DYNAMIC);
    expect(
      await cacheControlOf('/pets/42/apply', {
        method: 'POST',
        headers: { origin: site, 'content-type': 'text/plain' },
        body: 'x',
      }),
    ).toBe(NEXT_DYNAMIC);
  });
});
