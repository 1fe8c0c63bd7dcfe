import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseWebConfig } from '../config';
import { createEdgeServer, type TNextHandler } from './edge';
import { closeSharedRedis, sharedRedisReady } from './limiter';

/**
 * The site's edge over real HTTP, with a stand-in for Next.js that answers with the request headers
 * it was handed: what the pages and actions would see. Distinct loopback source addresses are
 * distinct visitors. The shared-limit case runs on the machine's Redis with a prefix of its own.
 */
/** The machine's Redis (../shared/STACK.md); keys under a prefix of this test's own. */
const REDIS_URL = 'redis://127.0.0.1:6379';

const echo: TNextHandler = async (request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(request.headers));
};

const servers: Server[] = [];

const start = async (environment: Record<string, string> = {}): Promise<string> => {
  const config = parseWebConfig({
    WEB_API_KEY: 'pets_live_0123456789abcdefghijklmnopqrstuv',
    SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
    ...environment,
  });
  const server = createEdgeServer(config, echo);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

afterAll(async () => {
  await closeSharedRedis();
});

type TAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

const send = (
  url: string,
  options: { from?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<TAnswer> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.from ?? '127.0.0.1',
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });

const seen = (answer: TAnswer): Record<string, string> => JSON.parse(answer.body);

/** A request with its target exactly as written (`send` takes a URL, which removes dot segments). */
const sendRaw = (
  site: string,
  target: string,
  options: { from?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<TAnswer> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(site);
    const request = httpRequest(
      {
        hostname,
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.from ?? '127.0.0.1',
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });

describe("the site's edge", () => {
  it('takes the socket as the visitor and ignores X-Forwarded-For from an untrusted peer', async () => {
    const site = await start();
    const answer = await send(`${site}/`, {
      from: '127.0.0.31',
      headers: { 'x-forwarded-for': '198.51.100.1', 'x-pets-visitor': '198.51.100.2' },
    });
    expect(seen(answer)['x-pets-visitor']).toBe('127.0.0.31');
    expect(seen(answer)['x-forwarded-for']).toBe('127.0.0.31');
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const site = await start({ TRUSTED_PROXIES: '127.0.0.9' });
    const viaProxy = await send(`${site}/`, {
      from: '127.0.0.9',
      headers: { 'x-forwarded-for': '203.0.113.5, 198.51.100.1' },
    });
    // One trusted hop: the address it names, not what the visitor wrote before it.
    expect(seen(viaProxy)['x-pets-visitor']).toBe('198.51.100.1');
    const direct = await send(`${site}/`, {
      from: '127.0.0.32',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(seen(direct)['x-pets-visitor']).toBe('127.0.0.32');
  });

  it('sets a fresh CSP nonce per response and hands Next.js the same policy', async () => {
    const site = await start();
    const [one, two] = [await send(`${site}/`), await send(`${site}/`)];
    const policy = String(one.headers['content-security-policy']);
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(seen(one)['content-security-policy']).toBe(policy);
    expect(two.headers['content-security-policy']).not.toBe(policy);
  });

  it('lets pages load the photos from where the API says they are, under each loopback name', async () => {
    /** The policy's sources of one directive. */
    const sourcesOf = (answer: TAnswer, directive: string) =>
      String(answer.headers['content-security-policy'])
        .split('; ')
        .find((part) => part.startsWith(`${directive} `))
        ?.split(' ')
        .slice(1) ?? [];
    // `pnpm start`: the site calls the API at 127.0.0.1, whose photos default to localhost.
    const started = await send(`${await start({ API_URL: 'http://127.0.0.1:4000/v1' })}/`);
    expect(sourcesOf(started, 'img-src')).toEqual([
      "'self'",
      'data:',
      'blob:',
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'https:',
    ]);
    expect(sourcesOf(started, 'form-action')).toEqual(
      expect.arrayContaining(["'self'", 'http://127.0.0.1:4000', 'http://localhost:4000']),
    );
    // Compose: the API behind a proxy the browser never sees, the photos in the object store.
    const composed = await send(
      `${await start({
        API_URL: 'http://proxy:8080/v1',
        MEDIA_BASE_URL: 'http://localhost:9000/pets-photos',
      })}/`,
    );
    expect(sourcesOf(composed, 'img-src')).toEqual(
      expect.arrayContaining(['http://localhost:9000', 'http://127.0.0.1:9000']),
    );
    expect(sourcesOf(composed, 'img-src')).not.toContain('http://proxy:8080');
    // A CDN: its origin alone.
    const cdn = await send(
      `${await start({ MEDIA_BASE_URL: 'http://photos.example.org/pets/' })}/`,
    );
    expect(sourcesOf(cdn, 'img-src')).toContain('http://photos.example.org');
    expect(sourcesOf(cdn, 'img-src')).not.toContain('http://127.0.0.1:4000');
  });

  it('sends HSTS and says https only when SITE_URL is https, whatever the client claims', async () => {
    const plain = await start();
    const spoofed = await send(`${plain}/`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
    expect(seen(spoofed)['x-forwarded-proto']).toBe('http');

    const secure = await start({ SITE_URL: 'https://adopt.example.org' });
    const answer = await send(`${secure}/`, { headers: { 'x-forwarded-proto': 'http' } });
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(seen(answer)['x-forwarded-proto']).toBe('https');
    expect(seen(answer)['x-forwarded-host']).toBe('adopt.example.org');
  });

  it('refuses a form posted from another site with a 403 page, and never reaches Next.js', async () => {
    const site = await start();
    const answer = await send(`${site}/staff/applications/1`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'next-action': 'abc' },
    });
    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('This form came from another site');
    const own = await send(`${site}/staff/applications/1`, {
      method: 'POST',
      headers: { origin: site, host: new URL(site).host },
    });
    expect(own.status).toBe(200);
  });

  it('notes form posts without Origin at most once a minute', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const site = await start();
      for (let index = 0; index < 20; index += 1) {
        const answer = await send(`${site}/pets/1/apply`, { method: 'POST', from: '127.0.0.33' });
        expect(answer.status).toBe(200);
      }
      const notes = warn.mock.calls.filter(([line]) => String(line).includes('without an Origin'));
      expect(notes.length).toBeLessThanOrEqual(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('answers a visitor over the page limit 429 with Retry-After; another visitor notices nothing', async () => {
    const site = await start({ VISITOR_LIMITS: 'page=5/60' });
    const statuses: number[] = [];
    let last: TAnswer | undefined;
    for (let index = 0; index < 8; index += 1) {
      last = await send(`${site}/pets/1`, { from: '127.0.0.34' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    expect(last?.body).toContain("We're getting a lot of visits");
    expect((await send(`${site}/pets/1`, { from: '127.0.0.35' })).status).toBe(200);
    // Build assets and the health check are never counted.
    expect((await send(`${site}/_next/static/x.js`, { from: '127.0.0.34' })).status).toBe(200);
    expect((await send(`${site}/healthz`, { from: '127.0.0.34' })).status).toBe(200);
  });

  it('judges a spelled path as the path it names: refused from another site, counted, then a 400', async () => {
    const site = await start({ VISITOR_LIMITS: 'page=4/60,form=3/60' });
    const spellings = [
      '/_next/../how-adoption-works',
      '/_next/%2e%2e/how-adoption-works',
      '/_next/%2E%2e/how-adoption-works',
      '/_next/static/%2E./../how-adoption-works',
      '/_next\\..\\how-adoption-works',
    ];
    for (const target of ['/how-adoption-works', ...spellings]) {
      const foreign = await sendRaw(site, target, {
        method: 'POST',
        from: '127.0.0.37',
        headers: { origin: 'https://evil.example' },
      });
      expect(foreign.status, target).toBe(403);
      expect(foreign.body).toContain('This form came from another site');
    }
    // Same-site, it never reaches Next.js: a 400 in words, counted as a page is.
    const refused = await sendRaw(site, spellings[0] as string, { from: '127.0.0.38' });
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.body).toContain('We cannot open this address');
    const statuses = [];
    for (const target of spellings.slice(1)) {
      statuses.push((await sendRaw(site, target, { from: '127.0.0.38' })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect((await sendRaw(site, '/how-adoption-works', { from: '127.0.0.38' })).status).toBe(429);
    // Form posts through a spelling spend the visitor's form budget like any other.
    const posts = [];
    for (let index = 0; index < 4; index += 1) {
      posts.push(
        (
          await sendRaw(site, '/_next/../applications/status', {
            method: 'POST',
            from: '127.0.0.39',
          })
        ).status,
      );
    }
    expect(posts).toEqual([400, 400, 400, 429]);
    // A real build asset is still free, and a post never is.
    expect((await sendRaw(site, '/_next/static/x.js', { from: '127.0.0.38' })).status).toBe(200);
    expect(
      (
        await sendRaw(site, '/_next/static/x.js', {
          method: 'POST',
          from: '127.0.0.40',
          headers: { origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(403);
  });

  it('counts a visitor once across instances that share Redis', async () => {
    const shared = {
      REDIS_URL,
      WEB_REDIS_KEY_PREFIX: `pets:web-test:${randomBytes(6).toString('hex')}:`,
      VISITOR_LIMITS: 'form=4/60',
    };
    const [one, two] = [await start(shared), await start(shared)];
    await sharedRedisReady({ redisUrl: REDIS_URL, redisKeyPrefix: shared.WEB_REDIS_KEY_PREFIX });
    const post = (site: string) =>
      send(`${site}/applications/status`, { method: 'POST', from: '127.0.0.36' });
    // A hundred at once through two instances: exactly the limit gets through.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => post(index % 2 === 0 ? one : two)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(96);
  });
});
