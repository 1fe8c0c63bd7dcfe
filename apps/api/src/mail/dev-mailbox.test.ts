import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNT_TEST_ENV, createAccount, testSite } from '../accounts/accounts.test-support';
import { createPet, placedOrder } from '../modules/orders/orders.test-support';
import { startTestApi, type TTestApi } from '../test/api-harness';
import { runCliProcess } from '../test/cli-process';

/**
 * Without SMTP_URL (the `pnpm start` default), email goes to the dev mailbox in DATA_DIR/mail:
 * each message as an .eml any mail client opens, its HTML and its entry, and `pnpm mail` lists
 * them with a link to each one rendered.
 */

let api: TTestApi;

beforeAll(async () => {
  api = await startTestApi({ env: ACCOUNT_TEST_ENV });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

it('puts every message in the dev mailbox, and pnpm mail lists them', async () => {
  const staff = await api.createKey({ name: 'Front desk', role: 'staff' });
  const categoryId = Number((await api.prisma.category.create({ data: { name: 'Dogs' } })).id);
  const petId = await createPet(api, staff, categoryId, 'Waffles');
  const order = await placedOrder(api, staff, petId);
  const folder = api.config.mailDir;
  expect(folder).toBe(join(api.config.dataDir, 'mail'));

  // The adopter's message and the staff's, each as three files.
  await expect
    .poll(
      () =>
        (existsSync(folder) ? readdirSync(folder) : []).filter((name) => name.endsWith('.json'))
          .length,
      {
        timeout: 20_000,
      },
    )
    .toBe(2);
  const names = readdirSync(folder).sort();
  expect(names).toEqual([
    '0000000001.eml',
    '0000000001.html',
    '0000000001.json',
    '0000000002.eml',
    '0000000002.html',
    '0000000002.json',
  ]);
  const eml = readFileSync(join(folder, '0000000001.eml'), 'utf8');
  expect(eml).toMatch(/^To: ada@example\.org$/m);
  expect(eml).toMatch(/^Subject: We have your application for Waffles$/m);
  expect(eml).toMatch(/^Message-ID: <mail-1\.\d+@localhost>$/m);
  expect(eml).toContain('Content-Type: text/plain');
  expect(eml).toContain('Content-Type: text/html');
  expect(readFileSync(join(folder, '0000000002.html'), 'utf8')).toContain(
    `/staff/applications/${order.id}`,
  );
  // Each says whom it is for, in the message and in its entry: the dev mailbox labels it so.
  expect(eml).toMatch(/^X-Pets-Reader: adopter$/m);
  const readerOf = (name: string) =>
    (JSON.parse(readFileSync(join(folder, `${name}.json`), 'utf8')) as { reader?: string }).reader;
  expect([readerOf('0000000001'), readerOf('0000000002')]).toEqual(['adopter', 'staff']);

  const listed = await runCliProcess(['mail'], {
    DATABASE_URL: api.database.url,
    DATA_DIR: api.config.dataDir,
  });
  expect(listed.code).toBe(0);
  const lines = listed.stdout.trim().split('\n');
  // Newest first: the staff's notice, then the adopter's message, each with its rendered file.
  expect(lines).toEqual([
    expect.stringMatching(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  hello@kindredpaws\\.example  New application A-${order.id} for Waffles$`,
      ),
    ),
    `  file://${join(folder, '0000000002.html')}`,
    expect.stringMatching(/ {2}ada@example\.org {2}We have your application for Waffles$/),
    `  file://${join(folder, '0000000001.html')}`,
  ]);
  expect(listed.stderr).toContain(`2 in the dev mailbox (${folder})`);
}, 60_000);

it('makes the folder again when it was deleted while the API runs', async () => {
  const staff = await api.createKey({ name: 'Back office', role: 'staff' });
  const categoryId = Number((await api.prisma.category.create({ data: { name: 'Cats' } })).id);
  const folder = api.config.mailDir;
  rmSync(folder, { recursive: true, force: true });

  const petId = await createPet(api, staff, categoryId, 'Biscuit');
  await placedOrder(api, staff, petId);

  // A message's .json is written last (mail-transport.ts): once both are there, nothing is left
  // half-written.
  await expect
    .poll(
      () =>
        (existsSync(folder) ? readdirSync(folder) : []).filter((name) => name.endsWith('.json'))
          .length,
      { timeout: 20_000 },
    )
    .toBe(2);
  expect(readdirSync(folder).filter((name) => name.endsWith('.eml'))).toHaveLength(2);
  expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
}, 60_000);

it('marks a message that carries a credential: /staff/mail shows it to its recipient only', async () => {
  const folder = api.config.mailDir;
  const entryOf = (name: string) =>
    JSON.parse(readFileSync(join(folder, `${name}.json`), 'utf8')) as {
      to: string;
      subject: string;
      credential?: boolean;
    };
  const entries = () =>
    (existsSync(folder) ? readdirSync(folder) : [])
      .filter((name) => name.endsWith('.json'))
      .map((name) => ({ name: name.slice(0, -'.json'.length), ...entryOf(name.slice(0, -5)) }));
  const before = entries().length;
  const admin = await createAccount(api, 'admin', { email: 'grace@example.org' });
  const site = await testSite(api);
  expect(
    (await site.asVisitor('/internal/auth/reset-request', { email: admin.email })).status,
  ).toBe(202);
  await expect.poll(() => entries().length, { timeout: 20_000 }).toBe(before + 1);

  const reset = entries().find(({ to }) => to === 'grace@example.org');
  expect(reset?.subject).toMatch(/^Reset your .* password$/);
  expect(reset?.credential).toBe(true);
  const eml = readFileSync(join(folder, `${reset?.name}.eml`), 'utf8');
  expect(eml).toMatch(/^X-Pets-Credential: yes$/m);
  // An application's messages carry none: staff see those applications anyway.
  const others = entries().filter(({ to }) => to !== 'grace@example.org');
  expect(others.length).toBeGreaterThan(0);
  expect(others.map(({ credential }) => credential)).toEqual(others.map(() => false));
  expect(readFileSync(join(folder, `${others[0]?.name}.eml`), 'utf8')).not.toContain(
    'X-Pets-Credential',
  );
}, 60_000);
