import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildOpenApiDocument, operationNames } from '@pets/contract';
import { signingKey } from '@pets/store/signing-keys.repository';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  testSite,
} from '../../accounts/accounts.test-support';
import { signOrderLink } from '../../links/order-links';
import { errorBody, startTestApi, useTestApi } from '../../test/api-harness';
import { launchChromium } from '../../test/browser';
import { plainPng } from '../photos/photos.test-support';
import { NOT_SENT_EXAMPLES, referenceDocument } from './docs-page';

const PRODUCTION_URL = 'https://api.shop.example/v1';
const STAGING_URL = 'https://staging-api.shop.example/v1';

const api = useTestApi({
  env: {
    PUBLIC_BASE_URL_PRODUCTION: PRODUCTION_URL,
    PUBLIC_BASE_URL_STAGING: STAGING_URL,
    // The portal's developer below: the cheapest password hashing the configuration allows.
    ...ACCOUNT_TEST_ENV,
  },
});

const installedBundle = () => {
  const entry = createRequire(__filename).resolve('@scalar/api-reference');
  return readFileSync(join(dirname(entry), 'browser', 'standalone.js'));
};

describe('GET /favicon.ico', () => {
  it('answers 204 without a key, cacheable, with no rate limit', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await api.fetch('/favicon.ico', { key: null });
      expect(response.status).toBe(204);
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(await response.text()).toBe('');
      expect(response.headers.has('x-ratelimit-limit')).toBe(false);
    }
  });
});

describe('GET /v1/openapi.json', () => {
  it('serves the contract with this deployment’s addresses, without a key', async () => {
    const response = await api.fetch('/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const document = (await response.json()) as ReturnType<typeof buildOpenApiDocument>;
    expect(document).toEqual(
      buildOpenApiDocument({
        productionUrl: PRODUCTION_URL,
        stagingUrl: STAGING_URL,
        thisServerEnvironment: 'production',
      }),
    );
    // Absolute, naming its environment: a generated client needs no base address, and
    // Spectral's owasp:api9:2023-inventory-environment is satisfied.
    expect(document.servers).toEqual([
      { url: PRODUCTION_URL, description: 'This server (production)', 'x-internal': false },
      { url: STAGING_URL, description: 'Staging', 'x-internal': false },
    ]);
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).map(
        (operation) => operation.operationId,
      ),
    );
    expect(operationIds.sort()).toEqual(operationNames().sort());
  });

  it('advertises this API first: its server address joined with each path reaches the operation', async () => {
    // What every OpenAPI client does: resolve the server address against the document's own
    // address, then append the path. Paths that repeated /v1 sent clients to /v1/v1/... (404).
    const documentUrl = `${api.baseUrl}/v1/openapi.json`;
    const document = (await (await api.fetch('/v1/openapi.json', { key: null })).json()) as {
      servers: { url: string; description: string }[];
      paths: Record<string, Record<string, unknown>>;
    };
    const thisServer = document.servers[0] as { url: string; description: string };
    expect(thisServer.description).toBe('This server (production)');
    // The public address stands for this server: its path (/v1), on the address the test reaches.
    const base = new URL(new URL(thisServer.url).pathname, documentUrl).href;
    expect(base).toBe(`${api.baseUrl}/v1`);
    const category = await api.prisma.category.create({ data: { name: 'Ferrets' } });
    const pet = await api.prisma.pet.create({
      data: { name: 'Noodle', categoryId: category.id, status: 'available' },
    });
    const key = await api.createKey({ role: 'staff' });
    const other = await api.prisma.pet.create({
      data: { name: 'Pretzel', categoryId: category.id, status: 'available' },
    });
    const placed = await api.fetch('/v1/store/orders', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ petId: Number(pet.id), adopter: { name: 'A', email: 'a@b.org' } }),
    });
    const orderId = ((await placed.json()) as { id: number }).id;
    // A photo to delete, added beforehand; the one the walk adds is then the only one to order.
    const png = await plainPng(120, 90);
    const upload = (petId: bigint) =>
      api.fetch(`/v1/pets/${petId}/photos`, {
        key,
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: png,
      });
    const photoId = ((await (await upload(pet.id)).json()) as { id: number }).id;
    // The private link an email to the adopter would carry.
    const token = signOrderLink(await signingKey(api.pool, 'order-links'), orderId, Date.now());
    // A webhook endpoint with a delivery to retry, and another for the walk to delete.
    const newEndpoint = async () => {
      const response = await api.fetch('/v1/webhook-endpoints', {
        key,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://partner.example/hooks', events: ['*'] }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const endpointId = await newEndpoint();
    const endpointToDelete = await newEndpoint();
    const test = await api.fetch(`/v1/webhook-endpoints/${endpointId}/test`, {
      key,
      method: 'POST',
    });
    const deliveryId = ((await test.json()) as { id: string }).id;
    const bodies: Record<string, unknown> = {
      'post /pets': { name: 'Pickles', categoryId: Number(category.id) },
      'post /store/orders': { petId: Number(other.id), adopter: { name: 'B', email: 'b@c.org' } },
      'patch /pets/{petId}': { name: 'Noodle II' },
      'post /store/orders/{orderId}/decline': { reason: 'other' },
      'post /store/orders/{orderId}/notes': { text: 'Called them.' },
      'post /store/order-links': { email: 'a@b.org' },
      'post /store/order-links/lookup': { token },
      'post /store/order-links/confirm': { token },
      'post /store/orders/{orderId}/questions': { text: 'Is the garden fenced?' },
      'post /webhook-endpoints': { url: 'https://partner.example/hooks', events: ['*'] },
      'patch /webhook-endpoints/{endpointId}': { description: 'Walked' },
    };
    const images: Record<string, Buffer> = { 'post /pets/{petId}/photos': png };
    let addedPhotoId = 0;
    const statuses: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) {
        const operation = `${method} ${path}`;
        const url = `${base}${path
          .replace('{petId}', String(pet.id))
          .replace('{orderId}', String(orderId))
          .replace('{photoId}', String(photoId))
          .replace(
            '{endpointId}',
            operation === 'delete /webhook-endpoints/{endpointId}' ? endpointToDelete : endpointId,
          )
          .replace('{deliveryId}', deliveryId)}`;
        const image = images[operation];
        const body =
          operation === 'put /pets/{petId}/photos/order'
            ? { photoIds: [addedPhotoId] }
            : bodies[operation];
        const response = await fetch(url, {
          method: method.toUpperCase(),
          headers: {
            authorization: `Bearer ${key}`,
            ...(image ? { 'content-type': 'image/png' } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: image ?? (body === undefined ? undefined : JSON.stringify(body)),
        });
        if (image) {
          addedPhotoId = ((await response.clone().json()) as { id: number }).id;
        }
        statuses.push(`${operation} ${response.status}`);
      }
    }
    // Every path reached its operation: a 409 is the order's state (the first transitions of the
    // placed order, in document order, were approve and complete), never a 404 for a route.
    expect(statuses.sort()).toEqual(
      [
        'get /categories 200',
        'get /events 200',
        'get /me 200',
        'get /pets 200',
        'get /pets/{petId} 200',
        'get /store/orders 200',
        'get /store/orders/{orderId} 200',
        'post /store/order-links/lookup 200',
        // The order was placed with no confirmation asked: there is nothing to confirm.
        'post /store/order-links/confirm 409',
        'post /store/order-links 202',
        'patch /pets/{petId} 200',
        'post /pets 201',
        'post /store/orders 201',
        'post /store/orders/{orderId}/approve 200',
        'post /store/orders/{orderId}/cancel 409',
        'post /store/orders/{orderId}/complete 200',
        'post /store/orders/{orderId}/decline 409',
        'get /store/orders/{orderId}/notes 200',
        'post /store/orders/{orderId}/notes 201',
        'post /store/orders/{orderId}/questions 201',
        'delete /pets/{petId}/photos/{photoId} 204',
        'post /pets/{petId}/photos 201',
        'put /pets/{petId}/photos/order 200',
        'get /webhook-endpoints 200',
        'post /webhook-endpoints 201',
        'get /webhook-endpoints/{endpointId} 200',
        'patch /webhook-endpoints/{endpointId} 200',
        'delete /webhook-endpoints/{endpointId} 204',
        'post /webhook-endpoints/{endpointId}/rotate-secret 200',
        'post /webhook-endpoints/{endpointId}/test 202',
        'get /webhook-endpoints/{endpointId}/deliveries 200',
        'post /webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry 202',
      ].sort(),
    );
  });

  it('is limited per client address like any request without a key, with the headers', async () => {
    const limited = await startTestApi({ rateLimit: { minuteMs: 60_000 } });
    try {
      const responses: Response[] = [];
      for (let index = 0; index < 61; index += 1) {
        // A valid key does not move the document onto the key's budget: it is per address.
        responses.push(await limited.fetch('/v1/openapi.json', index % 2 ? {} : { key: null }));
      }
      const first = responses[0] as Response;
      expect(first.headers.get('x-ratelimit-limit')).toBe('60');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
      expect(first.headers.get('ratelimit-policy')).toMatch(/"minute";q=60;w=60/);
      expect(responses.slice(0, 60).every((response) => response.status === 200)).toBe(true);
      const refused = responses[60] as Response;
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
      // The same address has used its budget for key-less /v1 requests too.
      expect((await limited.fetch('/v1/pets', { key: null })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('another method: 405 with the error body', async () => {
    const response = await api.fetch('/v1/openapi.json', { method: 'DELETE', key: null });
    expect(response.status).toBe(405);
    expect(await errorBody(response)).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });
});

describe('GET /docs', () => {
  it('is an HTML page whose scripts all come from this server, under a strict CSP', async () => {
    const response = await api.fetch('/docs', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.has('x-ratelimit-limit')).toBe(false);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual([
      expect.stringMatching(/^\/docs\/scalar\.js\?v=/),
      expect.stringMatching(/^\/docs\/docs\.js\?v=/),
    ]);
    expect(html).not.toMatch(/https?:\/\/(?!api\.shop\.example|staging-api\.shop\.example)/);

    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain(
      "connect-src 'self' https://api.shop.example https://staging-api.shop.example;",
    );
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(/script-src[^;]*unsafe-inline/.test(csp)).toBe(false);
  });

  it('serves the Scalar bundle of the installed package, compressed and cacheable', async () => {
    const page = await (await api.fetch('/docs', { key: null })).text();
    const src = /src="(\/docs\/scalar\.js\?v=[^"]+)"/.exec(page)?.[1] as string;
    const plain = await fetch(`${api.baseUrl}${src}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = Buffer.from(await plain.arrayBuffer());
    expect(body.equals(installedBundle())).toBe(true);

    // Node's fetch would decompress on its own: read the raw gzip bytes with node:http instead.
    const { request } = await import('node:http');
    const gzipped = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
      request(`${api.baseUrl}${src}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            encoding: res.headers['content-encoding'],
            bytes: Buffer.concat(chunks),
          }),
        );
      })
        .on('error', reject)
        .end();
    });
    expect(gzipped.encoding).toBe('gzip');
    expect(gzipped.bytes.length).toBeLessThan(body.length / 3);
    expect(gunzipSync(gzipped.bytes).equals(body)).toBe(true);
  });
});

describe('GET /docs/openapi.json', () => {
  it('is the published document with every optional parameter marked for Scalar as not sent', async () => {
    const page = await (await api.fetch('/docs', { key: null })).text();
    const config = JSON.parse(
      /<script id="docs-config" type="application\/json">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}',
    ) as { url: string };
    expect(config.url).toMatch(/^\/docs\/openapi\.json\?v=[\w-]{16}$/);
    const response = await api.fetch(config.url, { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const published = (await (
      await api.fetch('/v1/openapi.json', { key: null })
    ).json()) as ReturnType<typeof buildOpenApiDocument>;
    const served = (await response.json()) as typeof published;
    expect(served).toEqual(referenceDocument(published));
    // Only the marks differ: every optional parameter has them, no other does.
    const parameters = Object.values(served.paths).flatMap((item) =>
      Object.values(item as Record<string, { parameters?: Record<string, unknown>[] }>).flatMap(
        (operation) => operation.parameters ?? [],
      ),
    );
    expect(parameters.filter((parameter) => !parameter.required).length).toBeGreaterThan(30);
    for (const parameter of parameters) {
      expect(parameter.examples, String(parameter.name)).toEqual(
        parameter.required ? undefined : NOT_SENT_EXAMPLES,
      );
    }
  });
});

describe('the reference in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('loads and renders every operation without a single request elsewhere', {
    timeout: 180_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // The reference renders in the browser: over 30 s (Playwright's default wait) on a two-core
    // machine running the rest of CI, as "try it" below saw too.
    page.setDefaultTimeout(90_000);
    const requested: string[] = [];
    const external: string[] = [];
    const problems: string[] = [];
    // Nothing leaves this machine: any request to another origin is recorded and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${api.baseUrl}/`)) {
        return route.continue();
      }
      external.push(url);
      return route.abort();
    });
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      // The bundle probes once whether eval works (zod's JIT check, in a try/catch) and does
      // without it: the CSP refuses, as it should, and nothing else depends on it.
      if (
        message.type() === 'error' &&
        !message.text().startsWith('CSP violation: script-src eval')
      ) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    // Runs in the page: every CSP violation becomes a console error (the API has no DOM types).
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (event) => {
        console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI +
          ' at ' + event.sourceFile + ':' + event.lineNumber);
      });`,
    });

    // Rendering failures are reported after what was requested elsewhere, the likelier cause.
    let renderError: unknown = null;
    try {
      const response = await page.goto(`${api.baseUrl}/docs`);
      expect(response?.status()).toBe(200);
      await page.getByRole('heading', { name: 'Pet Adoption API' }).first().waitFor();
      for (const summary of [
        'List animals',
        'Add an animal',
        'Get an animal (deprecated)',
        'Change an animal (staff)',
        'List adoption orders',
        'Place an adoption order',
        'Get an adoption order',
        'Cancel an adoption order',
        'Approve an adoption order (staff)',
        'Complete an adoption order (staff)',
        'Decline an adoption order (staff)',
        "List an application's staff notes (staff)",
        'Add a staff note to an application (staff)',
        'List categories',
      ]) {
        await page.getByText(summary, { exact: true }).first().waitFor({ state: 'visible' });
      }
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(__dirname, '..', '..', '..', 'artifacts', 'docs.png') });
    } catch (error) {
      renderError = error;
    }

    expect(external).toEqual([]);
    expect(problems).toEqual([]);
    expect(renderError).toBeNull();
    expect(requested.some((url) => url.includes('/docs/scalar.js?v='))).toBe(true);
    expect(requested.some((url) => /\/docs\/openapi\.json\?v=/.test(url))).toBe(true);
    await context.close();
  });

  it('"try it": one request per operation through the page, each answered as documented', {
    timeout: 180_000,
  }, async () => {
    // The page fills each form from the document's examples: category 1 and animal 42 exist.
    await api.prisma.category.upsert({
      where: { id: 1n },
      create: { id: 1n, name: 'Dogs' },
      update: {},
    });
    await api.prisma.pet.upsert({
      where: { id: 42n },
      create: { id: 42n, name: 'Biscuit', categoryId: 1n, status: 'available' },
      update: {},
    });
    // The examples name order 7: the order the page places is the seventh. A staff key may call
    // every operation (the forms cannot switch keys).
    await api.prisma.$executeRawUnsafe("SELECT setval('orders_id_seq', 6)");
    const key = await api.createKey({ role: 'staff' });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route('**/*', (route) =>
      route.request().url().startsWith(`${api.baseUrl}/`) ? route.continue() : route.abort(),
    );
    const page = await context.newPage();
    await page.goto(`${api.baseUrl}/docs`);
    // The reference renders in the browser: slow on a loaded two-core machine (over 30 s seen).
    await page
      .getByRole('heading', { name: 'Pet Adoption API' })
      .first()
      .waitFor({ timeout: 90_000 });
    await page.waitForLoadState('networkidle');

    const answered: string[] = [];
    for (const [summary, method, path] of [
      ['List animals', 'get', '/pets'],
      ['Add an animal', 'post', '/pets'],
      ['Get an animal (deprecated)', 'get', '/pets/{petId}'],
      ['Change an animal (staff)', 'patch', '/pets/{petId}'],
      ['List adoption orders', 'get', '/store/orders'],
      ['Place an adoption order', 'post', '/store/orders'],
      ['Get an adoption order', 'get', '/store/orders/{orderId}'],
      ['Approve an adoption order (staff)', 'post', '/store/orders/{orderId}/approve'],
      ['Complete an adoption order (staff)', 'post', '/store/orders/{orderId}/complete'],
      ['Cancel an adoption order', 'post', '/store/orders/{orderId}/cancel'],
      ['List categories', 'get', '/categories'],
    ] as const) {
      // Through the sidebar (the first match): Scalar renders an operation's section when it is
      // reached, and with the photo operations the later ones are not rendered up front.
      await page.getByText(summary, { exact: true }).first().click();
      // Scalar's button reads "Test Request" and names the operation in hidden text.
      await page
        .locator('button.show-api-client-button', { hasText: `(${method} ${path})` })
        .first()
        .click();
      // The client's own bearer field (the reference behind it has one too).
      const token = page.getByPlaceholder('Token').filter({ visible: true }).last();
      await token.waitFor();
      if ((await token.inputValue()) !== key) {
        await token.fill(key);
      }
      const pattern = new RegExp(
        `^/v1${path.replace('{petId}', '\\d+').replace('{orderId}', '\\d+')}(\\?|$)`,
      );
      const [response] = await Promise.all([
        page.waitForResponse(
          (each) =>
            each.request().method() === method.toUpperCase() &&
            pattern.test(new URL(each.url()).pathname + (new URL(each.url()).search ? '?' : '')),
        ),
        // The client's Send button, beside its address bar. Its text starts with "Send": a
        // substring match would also find a response's description ("send the request again").
        page
          .locator('button', { hasText: /^\s*Send\b/ })
          .filter({ visible: true })
          .first()
          .click(),
      ]);
      answered.push(`${method} ${new URL(response.url()).pathname} ${response.status()}`);
      await page.keyboard.press('Escape');
    }
    await page.screenshot({
      path: join(__dirname, '..', '..', '..', 'artifacts', 'docs-try-it.png'),
    });
    expect(answered).toEqual([
      'get /v1/pets 200',
      'post /v1/pets 201',
      'get /v1/pets/42 200',
      'patch /v1/pets/42 200',
      'get /v1/store/orders 200',
      'post /v1/store/orders 201',
      'get /v1/store/orders/7 200',
      'post /v1/store/orders/7/approve 200',
      'post /v1/store/orders/7/complete 200',
      // A completed order cannot be cancelled: the documented 409, answered through the page.
      'post /v1/store/orders/7/cancel 409',
      'get /v1/categories 200',
    ]);
    await context.close();
  });

  it('the portal\'s "Try it" key fills the try-it, which opens with only what each operation needs: List animals lists them', {
    timeout: 240_000,
  }, async () => {
    // Animals to list: the first try of List animals must show them, not `[]`.
    const category = await api.prisma.category.create({ data: { name: 'Guinea pigs' } });
    for (const name of ['Pudding', 'Clover']) {
      await api.prisma.pet.create({
        data: { name, categoryId: category.id, status: 'available', sex: 'female', age: 'adult' },
      });
    }
    // The key the developer portal hands over: a developer signs in and presses "Try it in the
    // API reference" (a test, read-only key that works for an hour).
    const site = await testSite(api);
    const developer = await createAccount(api, 'developer');
    const signedIn = await signInAs(site, developer);
    const issued = await site.asPerson(signedIn.credential, '/internal/org/keys/reference', {
      method: 'POST',
    });
    expect(issued.status).toBe(201);
    const key = ((await issued.json()) as { key: string }).key;
    expect(key).toMatch(/^pets_test_/);

    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route('**/*', (route) =>
      route.request().url().startsWith(`${api.baseUrl}/`) ? route.continue() : route.abort(),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(90_000);
    await page.goto(`${api.baseUrl}/docs#try-key=${key}`);
    await page.getByRole('heading', { name: 'Pet Adoption API' }).first().waitFor();
    // Out of the address bar (replaced, so not in the history either): nothing of the key remains
    // to bookmark or share.
    expect(page.url()).not.toContain(key);

    // Each list (optional filters, paging and sort), an operation with a path parameter's example
    // beside optional ones, and a POST (its optional Idempotency-Key): each try-it sent as it
    // opens. (That every optional parameter of every operation is marked alike is the served
    // document's test above.)
    const answered: string[] = [];
    let animals: unknown;
    for (const [summary, method, path] of [
      ['List animals', 'get', '/pets'],
      ['Add an animal', 'post', '/pets'],
      ['List adoption orders', 'get', '/store/orders'],
      ['List categories', 'get', '/categories'],
      ['Describe the calling key', 'get', '/me'],
      ['List events', 'get', '/events'],
      ['List webhook endpoints', 'get', '/webhook-endpoints'],
      ["List a webhook endpoint's deliveries", 'get', '/webhook-endpoints/{endpointId}/deliveries'],
    ] as const) {
      // Through the sidebar: Scalar renders an operation's section when it is reached.
      await page.getByText(summary, { exact: true }).first().click();
      await page
        .locator('button.show-api-client-button', { hasText: `(${method} ${path})` })
        .first()
        .click();
      // The client's bearer field holds the portal's key already; nobody pasted it.
      const token = page.getByPlaceholder('Token').filter({ visible: true }).last();
      await token.waitFor();
      expect(await token.inputValue(), summary).toBe(key);
      const pathPattern = new RegExp(`^/v1${path.replace(/\{\w+\}/g, '[^/]+')}$`);
      const [response] = await Promise.all([
        page.waitForResponse(
          (each) =>
            each.request().method() === method.toUpperCase() &&
            pathPattern.test(new URL(each.url()).pathname),
        ),
        page
          .locator('button', { hasText: /^\s*Send\b/ })
          .filter({ visible: true })
          .first()
          .click(),
      ]);
      const sent = response.request().headers();
      expect(sent.authorization).toBe(`Bearer ${key}`);
      const optionalHeaders = ['idempotency-key', 'if-none-match', 'if-match'].filter(
        (name) => name in sent,
      );
      const url = new URL(response.url());
      answered.push(
        `${method} ${url.pathname}${url.search}${optionalHeaders.map((name) => ` +${name}`).join('')} ${response.status()}`,
      );
      if (summary === 'List animals') {
        animals = await response.json();
      }
      await page.keyboard.press('Escape');
    }
    await context.close();
    // Nothing the reader did not choose: no filter, no paging, no optional header. Each read
    // answers what it is for (the lists, the key; the example endpoint `we_12` is not this
    // organisation's), and a write the read-only key's refusal.
    expect(answered).toEqual([
      'get /v1/pets 200',
      'post /v1/pets 403',
      'get /v1/store/orders 200',
      'get /v1/categories 200',
      'get /v1/me 200',
      'get /v1/events 200',
      'get /v1/webhook-endpoints 200',
      'get /v1/webhook-endpoints/we_12/deliveries 404',
    ]);
    // List animals' first try lists the animals.
    expect(animals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Pudding' }),
        expect.objectContaining({ name: 'Clover' }),
      ]),
    );
  });
});
