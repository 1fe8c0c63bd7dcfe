import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operationNames } from '@pets/contract';
import { signingKey } from '@pets/store/signing-keys.repository';
import { runProcess } from '@pets/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { signOrderLink } from '../links/order-links';
import { plainPng } from '../modules/photos/photos.test-support';
import { json, useTestApi } from '../test/api-harness';

// Dredd, a tool nobody here wrote, reads the document the API serves and calls every operation
// on a fresh database with the usual hooks (test/dredd/hooks.cjs: documented successes only,
// fresh ids): each answer must match what the document says of it, body and headers.

const require_ = createRequire(__filename);
const DREDD = require_.resolve('dredd/bin/dredd');
const HOOKS = join(__dirname, '..', 'test', 'dredd', 'hooks.cjs');

const api = useTestApi();
let staffKey = '';
let categoryId = 0;
let orderLinkToken = '';
let confirmLinkToken = '';

beforeAll(async () => {
  staffKey = await api.createKey({
    role: 'staff',
    plan: 'enterprise',
    rateLimitPerMinute: 100_000,
    rateLimitPerDay: 1_000_000,
  });
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Rabbits' } })).id);
  // The private link of an order, as an email to its adopter carries it (getOrderByLink).
  const pet = await api.prisma.pet.create({
    data: { name: 'Thumper', categoryId: BigInt(categoryId) },
  });
  const placed = await api.fetch(
    '/v1/store/orders',
    json(
      { petId: Number(pet.id), adopter: { name: 'Ada', email: 'ada@example.org' } },
      { key: staffKey },
    ),
  );
  const orderId = ((await placed.json()) as { id: number }).id;
  orderLinkToken = signOrderLink(await signingKey(api.pool, 'order-links'), orderId, Date.now());
  // An application waiting for its adopter's confirmation (as APPLICATION_CONFIRMATION=email
  // places them), and the link of its first email (confirmOrderByLink).
  const unconfirmed = await api.prisma.order.create({
    data: {
      petId: pet.id,
      apiKeyId: (await api.prisma.apiKey.findFirstOrThrow()).id,
      status: 'unconfirmed',
      adopterName: 'Bo',
      adopterEmail: 'bo@example.org',
      history: [{ at: new Date().toISOString(), to: 'unconfirmed', by: 'pets_live_dred' }],
    },
  });
  confirmLinkToken = signOrderLink(
    await signingKey(api.pool, 'order-links'),
    Number(unconfirmed.id),
    Date.now(),
  );
});

describe('Dredd over the served document', () => {
  it('passes every operation on a fresh database', async () => {
    const served = await api.fetch('/v1/openapi.json', { key: null });
    expect(served.status).toBe(200);
    const folder = mkdtempSync(join(tmpdir(), 'pets-dredd-'));
    const document = join(folder, 'openapi.json');
    writeFileSync(document, await served.text());

    const run = await runProcess({
      name: 'dredd',
      command: process.execPath,
      args: [
        DREDD,
        document,
        `${api.baseUrl}/v1`,
        '--hookfiles',
        HOOKS,
        '--loglevel',
        'warning',
        '--no-color',
      ],
      env: {
        PATH: process.env.PATH ?? '',
        DREDD_API_URL: `${api.baseUrl}/v1`,
        DREDD_DOCUMENT: document,
        DREDD_STAFF_KEY: staffKey,
        DREDD_CATEGORY_ID: String(categoryId),
        DREDD_PHOTO_BASE64: (await plainPng(64, 48)).toString('base64'),
        DREDD_ORDER_LINK_TOKEN: orderLinkToken,
        DREDD_CONFIRM_LINK_TOKEN: confirmLinkToken,
      },
      timeoutMs: 240_000,
    });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: Dredd colours some lines whatever it is told.
    const output = `${run.stdout}\n${run.stderr}`.replace(/\u001b\[\d+m/g, '');
    expect(run.code, output).toBe(0);
    // One success of each operation of the contract was tried, and none failed.
    expect(output).toMatch(
      new RegExp(`complete: ${operationNames().length} passing, 0 failing, 0 errors`),
    );
  }, 300_000);
});
