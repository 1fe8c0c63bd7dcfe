import { createRequire } from 'node:module';
import path from 'node:path';
import { contract, documentPath } from '@pets/contract';
import { nextLinkTarget } from '@pets/contract/rules';
import { freePort, startProcess, type TManagedProcess } from '@pets/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainPng, SVG_BYTES } from '../modules/photos/photos.test-support';
import { json, useTestApi } from '../test/api-harness';

// Prism (Stoplight), a validating proxy nobody here wrote, stands between a client and the real
// API, with the committed OpenAPI document: every answer is checked against the document (status
// documented for the operation, body schema, headers marked required). A violation shows as an
// `sl-violations` header, and with `--errors` a violation of the response becomes Prism's own
// `application/problem+json` error instead of the answer.
//
// Two proxies: one also validates requests (the traffic a correct client sends, the document
// checked from both sides); the other (`--validate-request=false`) lets deliberately wrong requests
// through (no key, a bad path parameter, another media type, a body over the limit), which Prism
// would otherwise answer itself (401, 422) without asking the API.
//
// Prism's known false positives are left out of the traffic, by name:
// - a lowercase `bearer` scheme: Prism refuses it with --errors, though the scheme is
//   case-insensitive (RFC 7235, section 2.1) and the API accepts it;
// - `HEAD`: Prism itself answers 500, parsing the empty body of the answer as JSON.

const require_ = createRequire(__filename);
const DOCUMENT = require_.resolve('@pets/contract/openapi.json');
const PRISM = path.join(
  path.dirname(require_.resolve('@stoplight/prism-cli/package.json')),
  'dist/index.js',
);

type TDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: { name: string; in: string; schema?: object }[];
        responses: Record<string, { headers?: Record<string, { required?: boolean }> }>;
      }
    >
  >;
};
const document = require_(DOCUMENT) as TDocument;
type TSchemaObject = {
  pattern?: string;
  maxLength?: number;
  properties?: Record<string, TSchemaObject>;
};

const routes = {
  listPets: contract.pets.listPets,
  createPet: contract.pets.createPet,
  updatePet: contract.pets.updatePet,
  getPet: contract.pets.getPet,
  listOrders: contract.orders.listOrders,
  placeOrder: contract.orders.placeOrder,
  getOrder: contract.orders.getOrder,
  cancelOrder: contract.orders.cancelOrder,
  approveOrder: contract.orders.approveOrder,
  declineOrder: contract.orders.declineOrder,
  listOrderNotes: contract.orders.listOrderNotes,
  addOrderNote: contract.orders.addOrderNote,
  completeOrder: contract.orders.completeOrder,
  listCategories: contract.categories.listCategories,
  getCurrentKey: contract.me.getCurrentKey,
  addPetPhoto: contract.pets.addPetPhoto,
  deletePetPhoto: contract.pets.deletePetPhoto,
  reorderPetPhotos: contract.pets.reorderPetPhotos,
  listEvents: contract.events.listEvents,
  listWebhookEndpoints: contract.webhooks.listWebhookEndpoints,
  createWebhookEndpoint: contract.webhooks.createWebhookEndpoint,
  getWebhookEndpoint: contract.webhooks.getWebhookEndpoint,
  updateWebhookEndpoint: contract.webhooks.updateWebhookEndpoint,
  deleteWebhookEndpoint: contract.webhooks.deleteWebhookEndpoint,
  rotateWebhookSecret: contract.webhooks.rotateWebhookSecret,
  testWebhookEndpoint: contract.webhooks.testWebhookEndpoint,
  listWebhookDeliveries: contract.webhooks.listWebhookDeliveries,
  retryWebhookDelivery: contract.webhooks.retryWebhookDelivery,
};
type TOperation = keyof typeof routes;

/** Every path parameter the 401 and 429 rounds need: ids that exist or not, all well formed. */
const ANY_IDS = { photoId: 1, endpointId: 'we_1', deliveryId: 'whd_1' };
/** A public address: the API accepts it (and its worker fails to deliver there, unseen here). */
const HOOK_URL = 'https://partner.example/hooks/pets';

/** The operation's address as the document writes it, with its parameters filled in. */
const pathOf = (operation: TOperation, params: Record<string, string | number> = {}): string =>
  documentPath(routes[operation].path).replace(/:([A-Za-z]+)/g, (_match, name: string) =>
    String(params[name]),
  );

const api = useTestApi({
  rateLimit: { ban: { threshold: 2, strikeWindowMs: 60_000, banMs: 60_000, sustainedMs: 0 } },
});

const startPrism = async (
  upstream: string,
  validateRequests: boolean,
): Promise<[TManagedProcess, string]> => {
  const port = await freePort();
  const prism = startProcess({
    name: validateRequests ? 'prism' : 'prism-responses',
    command: process.execPath,
    args: [
      PRISM,
      'proxy',
      DOCUMENT,
      upstream,
      '--errors',
      `--validate-request=${validateRequests}`,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    env: { PATH: process.env.PATH, NODE_ENV: 'test' },
  });
  await prism.waitForLine(/Prism is listening/, { timeoutMs: 60_000 });
  return [prism, `http://127.0.0.1:${port}`];
};

type TExchange = {
  operation: TOperation;
  label: string;
  status: number;
  code?: string;
  response: Response;
  body: unknown;
};
const exchanges: TExchange[] = [];

let validating: TManagedProcess;
let lenient: TManagedProcess;
let validatingUrl: string;
let lenientUrl: string;
let key: string;
let staff: string;
let readOnly: string;
let categoryId: number;
let petId: number;
let png: Buffer;

beforeAll(async () => {
  [[validating, validatingUrl], [lenient, lenientUrl]] = await Promise.all([
    startPrism(`${api.baseUrl}/v1`, true),
    startPrism(`${api.baseUrl}/v1`, false),
  ]);
  key = await api.createKey({ plan: 'pro' });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Tortoises' } })).id);
  for (const name of ['Shelly', 'Speedy', 'Tank']) {
    petId = Number(
      (await api.prisma.pet.create({ data: { name, categoryId: BigInt(categoryId) } })).id,
    );
  }
  staff = await api.createKey({ plan: 'pro', role: 'staff' });
  readOnly = await api.createKey({ plan: 'pro', readOnly: true });
  png = await plainPng(200, 150);
}, 120_000);

afterAll(async () => {
  await Promise.all([validating?.stop(), lenient?.stop()]);
});

/** Sends one request through a proxy and records the answer. */
const send = async (
  through: 'validating' | 'lenient',
  operation: TOperation,
  label: string,
  target: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<TExchange> => {
  const { key: sentKey = key, headers, ...rest } = init;
  const response = await fetch(
    `${through === 'validating' ? validatingUrl : lenientUrl}${target}`,
    {
      ...rest,
      method: routes[operation].method,
      headers: {
        ...(sentKey === null ? {} : { authorization: `Bearer ${sentKey}` }),
        ...(headers as Record<string, string> | undefined),
      },
    },
  );
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  const exchange: TExchange = {
    operation,
    label,
    status: response.status,
    code: (body as { code?: string } | undefined)?.code,
    response,
    body,
  };
  exchanges.push(exchange);
  return exchange;
};

const jsonBody = (body: string) => ({
  body,
  headers: { 'content-type': 'application/json' },
});

const ADOPTER = { name: 'Ada Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0958' };

/** A valid body for each operation that takes one, for the 401 and 429 rounds. */
const validBody = (operation: TOperation) => {
  switch (operation) {
    case 'createPet':
      return jsonBody(JSON.stringify({ name: 'Rex', categoryId }));
    case 'placeOrder':
      return jsonBody(JSON.stringify({ petId, adopter: ADOPTER }));
    case 'updatePet':
      return jsonBody(JSON.stringify({ name: 'Rex' }));
    case 'addPetPhoto':
      return { body: png, headers: { 'content-type': 'image/png' } };
    case 'reorderPetPhotos':
      return jsonBody(JSON.stringify({ photoIds: [] }));
    case 'declineOrder':
      return jsonBody(JSON.stringify({ reason: 'not_a_match' }));
    case 'addOrderNote':
      return jsonBody(JSON.stringify({ text: 'Called her.' }));
    case 'createWebhookEndpoint':
      return jsonBody(JSON.stringify({ url: HOOK_URL, events: ['pet.created'] }));
    case 'updateWebhookEndpoint':
      return jsonBody(JSON.stringify({ description: 'Our adoption pages' }));
    default:
      return {};
  }
};

describe('Prism validating proxy: the API answers as its OpenAPI document says', () => {
  it('sends a traffic mix covering every operation and every documented status', async () => {
    // 200 and 201, and a page followed through its Link header.
    const first = await send('validating', 'listPets', 'list', `${pathOf('listPets')}?limit=2`);
    const next = nextLinkTarget(first.response.headers.get('link'));
    expect(next).toBeDefined();
    await send('validating', 'listPets', 'next page', documentPath(next as string));
    await send(
      'validating',
      'listPets',
      'filtered',
      `${pathOf('listPets')}?status=available&categoryId=${categoryId}&limit=100`,
    );
    await send(
      'validating',
      'createPet',
      'create',
      pathOf('createPet'),
      jsonBody(JSON.stringify({ name: 'Rocky', categoryId })),
    );
    await send(
      'validating',
      'createPet',
      'create with status',
      pathOf('createPet'),
      jsonBody(JSON.stringify({ name: 'Pebble', categoryId, status: 'pending' })),
    );
    // Idempotency-Key: the first answer, its replay (marked), and the key reused: 422.
    const idempotent = (name: string) => ({
      body: JSON.stringify({ name, categoryId }),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'prism-mix-1' },
    });
    await send('validating', 'createPet', 'idempotent', pathOf('createPet'), idempotent('Kiwi'));
    const replay = await send(
      'validating',
      'createPet',
      'idempotent replay',
      pathOf('createPet'),
      idempotent('Kiwi'),
    );
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    await send(
      'validating',
      'createPet',
      'idempotency key reused',
      pathOf('createPet'),
      idempotent('Mango'),
    );
    await send('validating', 'getPet', 'get', pathOf('getPet', { petId }));

    // The order lifecycle: place (201), read, approve and complete (staff), cancel.
    const placed = await send(
      'validating',
      'placeOrder',
      'place',
      pathOf('placeOrder'),
      jsonBody(JSON.stringify({ petId, adopter: ADOPTER, message: 'We have a garden.' })),
    );
    const orderId = (placed.body as { id: number }).id;
    await send('validating', 'getOrder', 'get', pathOf('getOrder', { orderId }));
    await send('validating', 'approveOrder', 'approve', pathOf('approveOrder', { orderId }), {
      key: staff,
    });
    await send('validating', 'listOrders', 'orders', pathOf('listOrders'));
    await send('validating', 'addOrderNote', 'note', pathOf('addOrderNote', { orderId }), {
      ...jsonBody(JSON.stringify({ text: 'Called her: fenced garden.' })),
      key: staff,
    });
    await send('validating', 'listOrderNotes', 'notes', pathOf('listOrderNotes', { orderId }), {
      key: staff,
    });
    await send('validating', 'listOrderNotes', 'partner', pathOf('listOrderNotes', { orderId }));
    await send(
      'validating',
      'listOrders',
      'staff, one animal',
      `${pathOf('listOrders')}?petId=${petId}`,
      { key: staff },
    );
    await send(
      'validating',
      'updatePet',
      'status contradicting the open order',
      pathOf('updatePet', { petId }),
      { ...jsonBody(JSON.stringify({ status: 'available' })), key: staff },
    );
    await send('validating', 'completeOrder', 'complete', pathOf('completeOrder', { orderId }), {
      key: staff,
    });
    await send(
      'validating',
      'cancelOrder',
      'cancel a completed order',
      pathOf('cancelOrder', { orderId }),
    );
    await send(
      'validating',
      'approveOrder',
      'approve a completed order',
      pathOf('approveOrder', { orderId }),
      { key: staff },
    );
    await send(
      'validating',
      'completeOrder',
      'complete a completed order',
      pathOf('completeOrder', { orderId }),
      { key: staff },
    );
    await send(
      'validating',
      'placeOrder',
      'a sold animal',
      pathOf('placeOrder'),
      jsonBody(JSON.stringify({ petId, adopter: ADOPTER })),
    );
    const other = await send(
      'validating',
      'createPet',
      'another animal',
      pathOf('createPet'),
      jsonBody(JSON.stringify({ name: 'Dash', categoryId })),
    );
    const otherPetId = (other.body as { id: number }).id;
    const second = await send(
      'validating',
      'placeOrder',
      'place another',
      pathOf('placeOrder'),
      jsonBody(
        JSON.stringify({ petId: otherPetId, adopter: { name: 'Bo', email: 'bo@example.org' } }),
      ),
    );
    await send(
      'validating',
      'cancelOrder',
      'cancel',
      pathOf('cancelOrder', { orderId: (second.body as { id: number }).id }),
    );
    // Declined by the store, with a reason and a note for the adopter; then not again.
    const third = await send(
      'validating',
      'placeOrder',
      'a third adopter',
      pathOf('placeOrder'),
      jsonBody(
        JSON.stringify({ petId: otherPetId, adopter: { name: 'Cy', email: 'cy@example.org' } }),
      ),
    );
    const thirdId = (third.body as { id: number }).id;
    await send(
      'validating',
      'placeOrder',
      'the same adopter again',
      pathOf('placeOrder'),
      jsonBody(
        JSON.stringify({ petId: otherPetId, adopter: { name: 'Cy', email: 'cy@example.org' } }),
      ),
    );
    await send(
      'validating',
      'declineOrder',
      'partner',
      pathOf('declineOrder', { orderId: thirdId }),
      {
        ...jsonBody(JSON.stringify({ reason: 'not_a_match' })),
      },
    );
    // Prism refuses this one itself when validating requests: the API's own 400 is what we check.
    await send(
      'lenient',
      'declineOrder',
      'no reason',
      pathOf('declineOrder', { orderId: thirdId }),
      {
        ...jsonBody(JSON.stringify({ note: 'Sorry.' })),
        key: staff,
      },
    );
    await send(
      'validating',
      'declineOrder',
      'decline',
      pathOf('declineOrder', { orderId: thirdId }),
      {
        ...jsonBody(JSON.stringify({ reason: 'home_not_suitable', note: 'Dash needs a garden.' })),
        key: staff,
      },
    );
    await send(
      'validating',
      'declineOrder',
      'decline a declined order',
      pathOf('declineOrder', { orderId: thirdId }),
      { ...jsonBody(JSON.stringify({ reason: 'other' })), key: staff },
    );
    await send(
      'validating',
      'declineOrder',
      'no such order',
      pathOf('declineOrder', { orderId: 987_654 }),
      { ...jsonBody(JSON.stringify({ reason: 'other' })), key: staff },
    );
    await send('validating', 'updatePet', 'update', pathOf('updatePet', { petId: otherPetId }), {
      ...jsonBody(JSON.stringify({ name: 'Dash II', status: 'sold' })),
      key: staff,
    });

    // Photos. Prism forwards a request body as text, so an image's bytes do not reach the API
    // intact (0x89 becomes U+FFFD), and it refuses bodies over 10 MB itself (the photo limit's
    // 413 is photos.error.test.ts'): the photos are added directly (their 201 is checked against
    // the contract's schema in photos.happy.test.ts), then reordered (200) and deleted (204)
    // through Prism, with the refusals that do not depend on the bytes.
    const photoIds: number[] = [];
    for (let index = 0; index < 2; index += 1) {
      const added = await api.fetch(`/v1${pathOf('addPetPhoto', { petId: otherPetId })}`, {
        method: 'POST',
        body: png,
        headers: { 'content-type': 'image/png' },
        key,
      });
      expect(added.status).toBe(201);
      photoIds.push(((await added.json()) as { id: number }).id);
    }
    await send(
      'validating',
      'reorderPetPhotos',
      'reorder',
      pathOf('reorderPetPhotos', { petId: otherPetId }),
      jsonBody(JSON.stringify({ photoIds: [...photoIds].reverse() })),
    );
    await send(
      'validating',
      'reorderPetPhotos',
      'a stale order',
      pathOf('reorderPetPhotos', { petId: otherPetId }),
      jsonBody(JSON.stringify({ photoIds: [photoIds[0]] })),
    );
    await send(
      'validating',
      'reorderPetPhotos',
      'no such animal',
      pathOf('reorderPetPhotos', { petId: 987_654 }),
      jsonBody(JSON.stringify({ photoIds: [] })),
    );
    await send('validating', 'listPets', 'with photos', `${pathOf('listPets')}?id=${otherPetId}`);
    await send(
      'validating',
      'deletePetPhoto',
      'delete',
      pathOf('deletePetPhoto', { petId: otherPetId, photoId: photoIds[0] as number }),
    );
    await send(
      'validating',
      'deletePetPhoto',
      'deleted already',
      pathOf('deletePetPhoto', { petId: otherPetId, photoId: photoIds[0] as number }),
    );
    await send(
      'validating',
      'deletePetPhoto',
      'read-only',
      pathOf('deletePetPhoto', { petId, photoId: 1 }),
      {
        key: readOnly,
      },
    );
    await send('validating', 'addPetPhoto', 'read-only', pathOf('addPetPhoto', { petId }), {
      ...validBody('addPetPhoto'),
      key: readOnly,
    });
    await send(
      'validating',
      'addPetPhoto',
      'no such animal',
      pathOf('addPetPhoto', { petId: 987_654 }),
      {
        ...validBody('addPetPhoto'),
      },
    );
    await send(
      'lenient',
      'addPetPhoto',
      'an SVG declared as PNG',
      pathOf('addPetPhoto', { petId }),
      {
        body: SVG_BYTES,
        headers: { 'content-type': 'image/png' },
      },
    );

    // 403: a partner key on staff operations, a read-only key writing.
    await send('validating', 'approveOrder', 'partner', pathOf('approveOrder', { orderId }));
    await send('validating', 'completeOrder', 'partner', pathOf('completeOrder', { orderId }));
    await send('validating', 'updatePet', 'partner', pathOf('updatePet', { petId }), {
      ...jsonBody(JSON.stringify({ name: 'Rex' })),
    });
    await send('validating', 'createPet', 'read-only', pathOf('createPet'), {
      ...jsonBody(JSON.stringify({ name: 'Rex', categoryId })),
      key: readOnly,
    });
    await send('validating', 'placeOrder', 'read-only', pathOf('placeOrder'), {
      ...jsonBody(JSON.stringify({ petId: otherPetId, adopter: ADOPTER })),
      key: readOnly,
    });
    await send('validating', 'cancelOrder', 'read-only', pathOf('cancelOrder', { orderId }), {
      key: readOnly,
    });

    // 404 for orders and animals the key does not see.
    await send('validating', 'getOrder', 'another key', pathOf('getOrder', { orderId }), {
      key: readOnly,
    });
    await send('validating', 'cancelOrder', 'another key', pathOf('cancelOrder', { orderId }), {
      key: await api.createKey({ plan: 'pro' }),
    });
    await send(
      'validating',
      'approveOrder',
      'no such order',
      pathOf('approveOrder', { orderId: 987_654 }),
      {
        key: staff,
      },
    );
    await send(
      'validating',
      'completeOrder',
      'no such order',
      pathOf('completeOrder', { orderId: 987_654 }),
      {
        key: staff,
      },
    );
    await send(
      'validating',
      'updatePet',
      'no such animal',
      pathOf('updatePet', { petId: 987_654 }),
      {
        ...jsonBody(JSON.stringify({ name: 'Ghost' })),
        key: staff,
      },
    );
    await send(
      'validating',
      'placeOrder',
      'no such animal',
      pathOf('placeOrder'),
      jsonBody(JSON.stringify({ petId: 987_654, adopter: ADOPTER })),
    );
    await send('lenient', 'placeOrder', 'bad email', pathOf('placeOrder'), {
      ...jsonBody(JSON.stringify({ petId: otherPetId, adopter: { name: 'Bo', email: 'bo' } })),
    });
    await send(
      'lenient',
      'getOrder',
      'orderId not a number',
      pathOf('getOrder', { orderId: 'abc' }),
    );
    await send('lenient', 'updatePet', 'bad status', pathOf('updatePet', { petId }), {
      ...jsonBody(JSON.stringify({ status: 'adopted' })),
      key: staff,
    });
    await send(
      'validating',
      'listOrders',
      'orders filtered',
      `${pathOf('listOrders')}?status=approved&limit=1`,
    );
    await send('validating', 'listCategories', 'categories', pathOf('listCategories'));
    await send('validating', 'getCurrentKey', 'staff key', pathOf('getCurrentKey'), { key: staff });

    // 400 for requests the document allows but the API refuses, and for ones it does not allow.
    await send('validating', 'listPets', 'foreign cursor', `${pathOf('listPets')}?cursor=not-ours`);
    await send(
      'validating',
      'listOrders',
      'foreign cursor',
      `${pathOf('listOrders')}?cursor=not-ours`,
    );
    await send(
      'validating',
      'createPet',
      'unknown category',
      pathOf('createPet'),
      jsonBody(JSON.stringify({ name: 'Rex', categoryId: 987_654 })),
    );
    await send('lenient', 'listPets', 'limit 0', `${pathOf('listPets')}?limit=0`);
    await send('lenient', 'getPet', 'petId not a number', pathOf('getPet', { petId: 'abc' }));
    await send(
      'lenient',
      'createPet',
      'blank name',
      pathOf('createPet'),
      jsonBody(JSON.stringify({ name: '   ', categoryId })),
    );
    await send(
      'lenient',
      'createPet',
      'no name',
      pathOf('createPet'),
      jsonBody(JSON.stringify({ categoryId })),
    );
    // (Malformed JSON is not sent: Prism parses a JSON body before forwarding it, and on a parse
    // error never answers.)

    // 404.
    await send('validating', 'getPet', 'no such animal', pathOf('getPet', { petId: petId + 1000 }));

    // 413 and 415 (a body Prism would refuse to forward as it is).
    await send(
      'lenient',
      'createPet',
      'body over 16 KiB',
      pathOf('createPet'),
      jsonBody(JSON.stringify({ name: 'x'.repeat(20_000), categoryId })),
    );
    await send('lenient', 'createPet', 'text/plain', pathOf('createPet'), {
      body: JSON.stringify({ name: 'Rex', categoryId }),
      headers: { 'content-type': 'text/plain' },
    });

    // Conditional requests: 304 while a page is unchanged, 412 for a stale If-Match.
    const page = await send(
      'validating',
      'listPets',
      'before a 304',
      `${pathOf('listPets')}?id=${petId}`,
    );
    const etag = page.response.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const unchanged = await send(
      'validating',
      'listPets',
      'unchanged',
      `${pathOf('listPets')}?id=${petId}`,
      { headers: { 'if-none-match': etag } },
    );
    expect(unchanged.status).toBe(304);
    await send('validating', 'updatePet', 'stale If-Match', pathOf('updatePet', { petId }), {
      ...jsonBody(JSON.stringify({ name: 'Shelly' })),
      headers: { 'content-type': 'application/json', 'if-match': etag },
      key: staff,
    });

    // Events and webhook endpoints: the lifecycle of an endpoint, and its refusals.
    await send('validating', 'listEvents', 'events', `${pathOf('listEvents')}?limit=5`);
    const endpoint = await send(
      'validating',
      'createWebhookEndpoint',
      'create',
      pathOf('createWebhookEndpoint'),
      validBody('createWebhookEndpoint'),
    );
    const endpointId = (endpoint.body as { id: string }).id;
    await send(
      'lenient',
      'createWebhookEndpoint',
      'a private address',
      pathOf('createWebhookEndpoint'),
      {
        ...jsonBody(JSON.stringify({ url: 'https://10.0.0.1/hooks', events: ['*'] })),
      },
    );
    await send(
      'validating',
      'createWebhookEndpoint',
      'read-only',
      pathOf('createWebhookEndpoint'),
      {
        ...validBody('createWebhookEndpoint'),
        key: readOnly,
      },
    );
    await send('validating', 'listWebhookEndpoints', 'list', pathOf('listWebhookEndpoints'));
    await send(
      'validating',
      'getWebhookEndpoint',
      'get',
      pathOf('getWebhookEndpoint', { endpointId }),
    );
    await send(
      'validating',
      'getWebhookEndpoint',
      'another key',
      pathOf('getWebhookEndpoint', { endpointId }),
      { key: staff },
    );
    await send(
      'validating',
      'updateWebhookEndpoint',
      'update',
      pathOf('updateWebhookEndpoint', { endpointId }),
      validBody('updateWebhookEndpoint'),
    );
    const test = await send(
      'validating',
      'testWebhookEndpoint',
      'test',
      pathOf('testWebhookEndpoint', { endpointId }),
    );
    const deliveryId = (test.body as { id: string }).id;
    await send(
      'validating',
      'listWebhookDeliveries',
      'deliveries',
      pathOf('listWebhookDeliveries', { endpointId }),
    );
    await send(
      'validating',
      'retryWebhookDelivery',
      'retry',
      pathOf('retryWebhookDelivery', { endpointId, deliveryId }),
    );
    await send(
      'validating',
      'rotateWebhookSecret',
      'rotate',
      pathOf('rotateWebhookSecret', { endpointId }),
    );
    await send(
      'validating',
      'deleteWebhookEndpoint',
      'delete',
      pathOf('deleteWebhookEndpoint', { endpointId }),
    );
    await send(
      'validating',
      'deleteWebhookEndpoint',
      'deleted already',
      pathOf('deleteWebhookEndpoint', { endpointId }),
    );

    // 401 on every operation, for a key the API does not know. (A request without a key never
    // reaches the API: Prism answers it itself, request validation or not.)
    for (const operation of Object.keys(routes) as TOperation[]) {
      const target = pathOf(operation, { petId, orderId: 1, ...ANY_IDS });
      const init = validBody(operation);
      await send('validating', operation, 'unknown key', target, {
        ...init,
        key: 'pets_live_0000000000000000000000000000',
      });
    }

    // 429 on every operation: rate_limited, then (the ban threshold being 2) api_key_banned.
    const limited = await api.createKey({
      plan: 'enterprise',
      rateLimitPerMinute: 1,
      rateLimitPerDay: 100,
    });
    await send(
      'validating',
      'listCategories',
      'the one admitted request',
      pathOf('listCategories'),
      { key: limited },
    );
    for (const round of ['limited', 'limited', 'banned']) {
      for (const operation of Object.keys(routes) as TOperation[]) {
        const init = validBody(operation);
        await send(
          'validating',
          operation,
          round,
          pathOf(operation, { petId, orderId: 1, ...ANY_IDS }),
          {
            ...init,
            key: limited,
          },
        );
      }
    }
  }, 120_000);

  it('no violation: every answer passed Prism, with no sl-violations header', () => {
    const violations = exchanges
      .filter(({ response }) => response.headers.has('sl-violations'))
      .map(({ operation, label, status, response }) => ({
        operation,
        label,
        status,
        violations: response.headers.get('sl-violations'),
      }));
    expect(violations).toEqual([]);
    const prismErrors = exchanges.filter(({ response }) =>
      response.headers.get('content-type')?.startsWith('application/problem+json'),
    );
    expect(prismErrors.map(({ label, body }) => ({ label, body }))).toEqual([]);
  });

  it('no undocumented status, and every header the document marks required is there', () => {
    for (const { operation, label, status, response } of exchanges) {
      const route = routes[operation];
      const documented =
        document.paths[documentPath(route.path).replace(/:([A-Za-z]+)/g, '{$1}')]?.[
          route.method.toLowerCase()
        ];
      expect(documented?.operationId, `${operation} in the document`).toBe(operation);
      const answer = documented?.responses[String(status)];
      expect(answer, `${operation} ${label}: ${status} is documented`).toBeDefined();
      const required = Object.entries(answer?.headers ?? {})
        .filter(([, header]) => header.required)
        .map(([name]) => name);
      const missing = required.filter((name) => !response.headers.has(name));
      expect(missing, `${operation} ${label} ${status}`).toEqual([]);
      // The spec's rule for every response, whatever the document marks.
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(response.headers.has(name), `${operation} ${label} ${status}: ${name}`).toBe(true);
      }
    }
  });

  it('the mix covered every operation and every documented status of section 7 and ours', () => {
    const seen = new Set(exchanges.map(({ operation }) => operation));
    expect([...seen].sort()).toEqual(Object.keys(routes).sort());
    const statuses = new Set(exchanges.map(({ status }) => status));
    expect([...statuses].sort()).toEqual([
      200, 201, 202, 204, 304, 400, 401, 403, 404, 409, 412, 413, 415, 422, 429,
    ]);
    const refusals = new Set(
      exchanges.filter(({ status }) => status === 429).map(({ code }) => code),
    );
    expect([...refusals].sort()).toEqual(['api_key_banned', 'rate_limited']);
    for (const operation of Object.keys(routes) as TOperation[]) {
      const codes = new Set(
        exchanges.filter((each) => each.operation === operation).map(({ status }) => status),
      );
      expect([...codes], operation).toEqual(expect.arrayContaining([401, 429]));
    }
  });
});

describe('Prism validating proxy: the document and the API agree on email addresses', () => {
  // The document's `format: email` meant something else to each validator; its pattern is the
  // contract's rule. Each address goes through the validating proxy (the document's verdict: a
  // refusal is Prism's own 422) and, when the document accepts it, on to the API.
  const ACCEPTED = [
    'admin@localhost',
    'ada@example.org',
    '0@com',
    "o'brien@example.ie",
    'a!#$%&*+/=?^_`{|}~-z@example.org',
    'x@a-b.c',
  ];
  const REFUSED = [
    'ada',
    'a..b@example.org',
    '.ada@example.org',
    'ada@example-.org',
    'ada@example.org.',
    '"ada lovelace"@example.org',
    'ada@[127.0.0.1]',
    'ada@exämple.org',
    ' ada@example.org',
  ];

  it('an address the document accepts, the API accepts; one it refuses, the API refuses', async () => {
    const sendOrderLinks = (base: string, email: string) =>
      fetch(`${base}/store/order-links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    const verdicts: string[] = [];
    for (const email of [...ACCEPTED, ...REFUSED]) {
      const proxied = await sendOrderLinks(validatingUrl, email);
      const direct = await sendOrderLinks(`${api.baseUrl}/v1`, email);
      await Promise.all([proxied.body?.cancel(), direct.body?.cancel()]);
      verdicts.push(`${JSON.stringify(email)} document ${proxied.status} API ${direct.status}`);
    }
    expect(verdicts).toEqual([
      ...ACCEPTED.map((email) => `${JSON.stringify(email)} document 202 API 202`),
      ...REFUSED.map((email) => `${JSON.stringify(email)} document 422 API 400`),
    ]);
  });
});

describe('Prism validating proxy: the document says what the API accepts', () => {
  // What a fuzzer that reads the document (Schemathesis) checks: a request the document allows is
  // not refused as invalid, and one the document refuses, the API refuses too. The document's
  // verdict is the validating proxy's (a refusal is Prism's own 422, before the API; otherwise the
  // API's answer through it), beside the API's answer to the same request sent directly.
  const verdict = async (
    label: string,
    method: string,
    target: string,
    {
      body,
      headers = {},
      as = key,
    }: { body?: unknown; headers?: Record<string, string>; as?: string } = {},
  ): Promise<string> => {
    const init = {
      method,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    const proxied = await fetch(`${validatingUrl}${target}`, init);
    const direct = await fetch(`${api.baseUrl}/v1${target}`, init);
    await Promise.all([proxied.body?.cancel(), direct.body?.cancel()]);
    return `${label}: document ${proxied.status} API ${direct.status}`;
  };

  it('an empty PATCH body is a change of nothing: every PATCH answers the resource as it was', async () => {
    // Every PATCH of the contract is here: a new one needs its line.
    const patches = Object.entries(routes)
      .filter(([, route]) => route.method === 'PATCH')
      .map(([name]) => name);
    expect(patches).toEqual(['updatePet', 'updateWebhookEndpoint']);
    const created = await api.fetch(
      '/v1/webhook-endpoints',
      json({ url: HOOK_URL, events: ['pet.created'] }, { key }),
    );
    const endpointId = ((await created.json()) as { id: string }).id;
    const targets = {
      updatePet: [pathOf('updatePet', { petId }), staff],
      updateWebhookEndpoint: [pathOf('updateWebhookEndpoint', { endpointId }), key],
    } as const;
    const verdicts: string[] = [];
    for (const name of patches as (keyof typeof targets)[]) {
      const [target, as] = targets[name];
      const before = await (await api.fetch(`/v1${target}`, { key: as })).json();
      verdicts.push(await verdict(name, 'PATCH', target, { body: {}, as }));
      const after = await api.fetch(`/v1${target}`, json({}, { key: as, method: 'PATCH' }));
      expect(await after.json(), name).toEqual(before);
    }
    expect(verdicts).toEqual([
      'updatePet: document 200 API 200',
      'updateWebhookEndpoint: document 200 API 200',
    ]);
  });

  it('an id is a number from 1 to 2^53 - 1 in every path and query: beyond it both refuse it, within it an unknown one is no error', async () => {
    const top = '9007199254740991';
    const beyond = '9007199254740992';
    const verdicts = [
      await verdict('listPets id top', 'GET', `${pathOf('listPets')}?id=${top}`),
      await verdict('listPets id beyond', 'GET', `${pathOf('listPets')}?id=${beyond}`),
      await verdict('listPets ids, one beyond', 'GET', `${pathOf('listPets')}?id=7,${beyond}`),
      await verdict('listPets id 0', 'GET', `${pathOf('listPets')}?id=0`),
      await verdict(
        'listPets categoryId beyond',
        'GET',
        `${pathOf('listPets')}?categoryId=${beyond}`,
      ),
      await verdict('getPet top', 'GET', pathOf('getPet', { petId: top })),
      await verdict('getPet beyond', 'GET', pathOf('getPet', { petId: beyond })),
      await verdict('listOrders petId beyond', 'GET', `${pathOf('listOrders')}?petId=${beyond}`),
      await verdict(
        'getWebhookEndpoint top',
        'GET',
        pathOf('getWebhookEndpoint', { endpointId: `we_${top}` }),
      ),
      await verdict(
        'getWebhookEndpoint beyond',
        'GET',
        pathOf('getWebhookEndpoint', { endpointId: `we_${beyond}` }),
      ),
      await verdict('listEvents after top', 'GET', `${pathOf('listEvents')}?after=evt_${top}`),
      await verdict(
        'listEvents after beyond',
        'GET',
        `${pathOf('listEvents')}?after=evt_${beyond}`,
      ),
    ];
    expect(verdicts).toEqual([
      'listPets id top: document 200 API 200',
      'listPets id beyond: document 422 API 400',
      'listPets ids, one beyond: document 422 API 400',
      'listPets id 0: document 422 API 400',
      'listPets categoryId beyond: document 422 API 400',
      'getPet top: document 404 API 404',
      'getPet beyond: document 422 API 400',
      'listOrders petId beyond: document 422 API 400',
      'getWebhookEndpoint top: document 404 API 404',
      'getWebhookEndpoint beyond: document 422 API 400',
      'listEvents after top: document 200 API 200',
      'listEvents after beyond: document 422 API 400',
    ]);
  });

  it('If-None-Match and If-Match are refused alike beyond the length the document declares', async () => {
    const longest = `"${'a'.repeat(1022)}"`;
    const tooLong = `"${'a'.repeat(1023)}"`;
    const list = pathOf('listPets');
    const update = pathOf('updatePet', { petId });
    const verdicts = [
      await verdict('If-None-Match 1024', 'GET', list, { headers: { 'if-none-match': longest } }),
      await verdict('If-None-Match 1025', 'GET', list, { headers: { 'if-none-match': tooLong } }),
      await verdict('If-Match 1024', 'PATCH', update, {
        body: {},
        headers: { 'if-match': longest },
        as: staff,
      }),
      await verdict('If-Match 1025', 'PATCH', update, {
        body: {},
        headers: { 'if-match': tooLong },
        as: staff,
      }),
    ];
    expect(verdicts).toEqual([
      'If-None-Match 1024: document 200 API 200',
      'If-None-Match 1025: document 422 API 400',
      'If-Match 1024: document 412 API 412',
      'If-Match 1025: document 422 API 400',
    ]);
    // Empty: Prism passes an empty header on unread, as if it were absent, so the document's
    // word is its declared minLength, read here; the API refuses it.
    const declared = (path: string, method: string, name: string) =>
      document.paths[path]?.[method]?.parameters?.find((parameter) => parameter.name === name)
        ?.schema;
    expect(declared('/pets', 'get', 'If-None-Match')).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 1024,
    });
    expect(declared('/pets/{petId}', 'patch', 'If-Match')).toEqual(
      declared('/pets', 'get', 'If-None-Match'),
    );
    const empty = [
      await api.fetch(`/v1${list}`, { key, headers: { 'if-none-match': '' } }),
      await api.fetch(
        `/v1${update}`,
        json({}, { key: staff, method: 'PATCH', headers: { 'if-match': '' } }),
      ),
    ];
    expect(await Promise.all(empty.map((response) => response.json()))).toEqual(
      ['If-None-Match', 'If-Match'].map((name) =>
        expect.objectContaining({
          code: 'invalid_request',
          status: 400,
          details: [
            {
              field: `header.${name}`,
              message: 'must not be empty: send an ETag, or leave the header out',
            },
          ],
        }),
      ),
    );
    // Too long, in the error format, naming the header, in our words.
    const words = 'must be at most 1024 characters: send the ETag you have, or a few of them';
    const refusals = [
      await api.fetch(`/v1${list}`, { key, headers: { 'if-none-match': tooLong } }),
      await api.fetch(
        `/v1${update}`,
        json({}, { key: staff, method: 'PATCH', headers: { 'if-match': tooLong } }),
      ),
    ];
    expect(await Promise.all(refusals.map((response) => response.json()))).toEqual(
      ['If-None-Match', 'If-Match'].map((name) => ({
        code: 'invalid_request',
        status: 400,
        message: `header.${name}: ${words}`,
        details: [{ field: `header.${name}`, message: words }],
      })),
    );
  });

  it('a text field that must say something is refused as blank by the document too, on every operation', async () => {
    // An animal of its own, available: the mix above has adopted the others.
    const created = await api.fetch('/v1/pets', json({ name: 'Crumble', categoryId }, { key }));
    const available = ((await created.json()) as { id: number }).id;
    const placed = await api.fetch(
      '/v1/store/orders',
      json(
        { petId: available, adopter: { name: 'Ada Lovelace', email: 'ada@example.org' } },
        { key },
      ),
    );
    expect(placed.status).toBe(201);
    const orderId = ((await placed.json()) as { id: number }).id;
    const notes = pathOf('addOrderNote', { orderId });
    const order = (name: string) => ({
      petId: available,
      adopter: { name, email: 'bo@example.org' },
    });
    const verdicts = [
      await verdict('note " Called her "', 'POST', notes, {
        body: { text: ' Called her ' },
        as: staff,
      }),
      await verdict('note " "', 'POST', notes, { body: { text: ' ' }, as: staff }),
      await verdict('note NBSP', 'POST', notes, { body: { text: '\u00a0' }, as: staff }),
      await verdict('note ideographic space', 'POST', notes, {
        body: { text: '\u3000' },
        as: staff,
      }),
      await verdict('note tab and line feed', 'POST', notes, { body: { text: '\t\n' }, as: staff }),
      await verdict('question " "', 'POST', `/store/orders/${orderId}/questions`, {
        body: { text: ' ' },
        as: staff,
      }),
      await verdict('adopter name " "', 'POST', pathOf('placeOrder'), { body: order(' ') }),
    ];
    expect(verdicts).toEqual([
      'note " Called her ": document 201 API 201',
      'note " ": document 422 API 400',
      'note NBSP: document 422 API 400',
      'note ideographic space: document 422 API 400',
      'note tab and line feed: document 422 API 400',
      'question " ": document 422 API 400',
      'adopter name " ": document 422 API 400',
    ]);

    // Prism lets every createPet and updatePet body through unvalidated: its reading of OpenAPI
    // 3.0 adds `null` to a nullable enum that lists it already (`sex`), ajv refuses the schema,
    // and Prism then validates nothing. So the document's word on their text fields is read from
    // it here, as ajv reads a pattern (with the `u` flag).
    const property = (schema: string, field: string) =>
      (document as unknown as { components: { schemas: Record<string, TSchemaObject> } }).components
        .schemas[schema]?.properties?.[field] ?? {};
    const documentAccepts = ({ pattern, maxLength }: TSchemaObject, text: string) =>
      (pattern === undefined || new RegExp(pattern, 'u').test(text)) &&
      (maxLength === undefined || text.length <= maxLength);
    const petFields = [
      ['NewPet', 'name', pathOf('createPet'), 'POST', key],
      ['NewPet', 'description', pathOf('createPet'), 'POST', key],
      ['NewPet', 'breed', pathOf('createPet'), 'POST', key],
      ['NewPet', 'specialNeedsNote', pathOf('createPet'), 'POST', key],
      ['PetUpdate', 'name', pathOf('updatePet', { petId }), 'PATCH', staff],
      ['PetUpdate', 'breed', pathOf('updatePet', { petId }), 'PATCH', staff],
    ] as const;
    const petVerdicts: string[] = [];
    for (const [schema, field, target, method, as] of petFields) {
      for (const text of [' Rex ', ' ', '\u00a0', '\u3000', '\t\n']) {
        const body =
          method === 'POST' ? { name: 'Rex', categoryId, [field]: text } : { [field]: text };
        const response = await api.fetch(`/v1${target}`, json(body, { key: as, method }));
        await response.body?.cancel();
        const accepts = documentAccepts(property(schema, field), text);
        petVerdicts.push(
          `${schema}.${field} ${JSON.stringify(text)}: document ${accepts ? 'accepts' : 'refuses'} API ${response.status}`,
        );
      }
    }
    expect(petVerdicts).toEqual(
      petFields.flatMap(([schema, field, , method]) => [
        `${schema}.${field} " Rex ": document accepts API ${method === 'POST' ? 201 : 200}`,
        ...[' ', '\u00a0', '\u3000', '\t\n'].map(
          (text) => `${schema}.${field} ${JSON.stringify(text)}: document refuses API 400`,
        ),
      ]),
    );
  });
});
