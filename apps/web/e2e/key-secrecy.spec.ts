import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unsealData } from 'iron-session';
import { expect, test } from './fixtures';
import { WEB_DIR } from './harness/paths';
import { apiPages, cards, uniqueName } from './helpers';
import { makePhoto } from './photo-helpers';
import { SESSION_COOKIE, signIn } from './staff-helpers';

/** The shape of any API key (docs: `pets_live_` or `pets_test_` and 32 characters). */
const API_KEY_PATTERN = /pets_(live|test)_[0-9A-Za-z]{32}/;

const filesUnder = (directory: string): string[] =>
  readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

test.describe("The site's API key", () => {
  test('never appears in anything sent to the browser', async ({ page, stack }) => {
    const bodies: Promise<{ url: string; text: string }>[] = [];
    page.on('response', (response) => {
      bodies.push(
        response
          .text()
          .then((text) => ({ url: response.url(), text }))
          .catch(() => ({ url: response.url(), text: '' })),
      );
    });

    // Every kind of page and every way of getting there: documents, RSC payloads on client-side
    // navigation, scripts, styles, and the server action's answer.
    await page.goto(stack.siteUrl);
    await page.getByRole('radio', { name: 'Pending adoption' }).check();
    await expect(page).toHaveURL(/status=pending/);
    await cards(page).first().getByRole('link').click();
    await expect(page).toHaveURL(/\/pets\/\d+/);
    await page.goto(`${stack.siteUrl}/pets/987654321`);
    await page.waitForLoadState('networkidle');

    const responses = await Promise.all(bodies);
    const kinds = new Set(
      responses.map(({ url }) => (url.includes('/_next/static/') ? 'static' : 'page')),
    );
    expect(kinds).toEqual(new Set(['static', 'page']));
    expect(responses.length).toBeGreaterThan(10);
    for (const { url, text } of responses) {
      // Neither this key nor anything shaped like a key (a large body would drown the report).
      expect(text.includes(stack.webApiKey), `the key in ${url}`).toBe(false);
      expect(API_KEY_PATTERN.test(text), `a key in ${url}`).toBe(false);
    }
    // Nor in the browser's storage or cookies.
    const stored = await page.evaluate(() =>
      JSON.stringify({ cookie: document.cookie, local: { ...localStorage } }),
    );
    expect(stored).not.toContain(stack.webApiKey);
  });

  test('is in none of the files the build serves', () => {
    // Nor any key at all (the staff keys too: the pattern matches any key), in what is served
    // to browsers and in the server's own build output.
    const files = [
      ...filesUnder(join(WEB_DIR, '.next', 'static')),
      ...filesUnder(join(WEB_DIR, '.next', 'server')),
    ];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(API_KEY_PATTERN.test(readFileSync(file, 'utf8')), file).toBe(false);
    }
  });
});

test.describe("The staff member's key and session", () => {
  test('never appear in anything sent to the browser: pages, RSC payloads, actions, cookies', async ({
    page,
    stack,
    api,
  }) => {
    const bodies: Promise<{ url: string; text: string }>[] = [];
    page.on('response', (response) => {
      bodies.push(
        response
          .text()
          .then((text) => ({ url: response.url(), text }))
          .catch(() => ({ url: response.url(), text: '' })),
      );
    });
    const [pets] = await apiPages(api, stack.apiUrl, { status: 'available', limit: 1 }, 1);
    const placed = await api.orders.placeOrder({
      body: { petId: pets?.[0]?.id ?? 0, adopter: { name: 'Kept Secret', email: 'k@example.org' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const orderId = placed.status === 201 ? placed.body.id : 0;

    // A refused sign-in, then the real one; every page of the back office, reached by client-side
    // navigation (RSC payloads) and by URL; each kind of server action; sign out.
    await page.goto(`${stack.siteUrl}/staff/sign-in`);
    // An address no account has: refused, and nobody's account counts a failure.
    await page.getByLabel('Email').fill(`nobody-${Date.now()}@store.test`);
    await page.getByLabel('Password').fill('not a password of anyone');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#sign-in-error')).toBeVisible();
    await signIn(page, stack.siteUrl, stack.staffAccount);
    const nav = page.getByRole('navigation', { name: 'Staff' });
    await nav.getByRole('link', { name: 'Animals' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Animals');
    await nav.getByRole('link', { name: 'Add an animal' }).click();
    // The animals list has a Name search of its own: fill the form's once its page is in.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Add an animal');
    await page.getByLabel('Name').fill(uniqueName('Secret keeper'));
    await page.getByLabel('Category').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page).toHaveURL(/created=1/);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(/saved=1/);
    // The photo actions: an upload (the file goes through the site's server), a removal.
    const photo = await makePhoto();
    await page.getByLabel('Add a photo').setInputFiles({
      name: photo.name,
      mimeType: photo.mimeType,
      buffer: photo.buffer,
    });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await expect(page.getByRole('status')).toHaveText('Photo added.');
    await page.getByRole('button', { name: 'Remove: photo 1' }).click();
    await expect(page.getByRole('status')).toHaveText('Photo removed.');
    await nav.getByRole('link', { name: 'Applications' }).click();
    await page.goto(`${stack.siteUrl}/staff/applications/${orderId}`);
    await page.getByRole('link', { name: 'Approve' }).click();
    await page.getByRole('button', { name: 'Yes, approve' }).click();
    await expect(page.getByRole('status')).toBeVisible();
    const cookie = (await page.context().cookies()).find(({ name }) => name === SESSION_COOKIE);
    expect(cookie?.value).toBeDefined();
    // The session credential the API issued, as only the site's server reads it.
    const { credential } = await unsealData<{ credential?: string }>(cookie?.value ?? '', {
      password: stack.sessionSecret,
    });
    expect(credential).toMatch(API_KEY_PATTERN);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText('You are signed out.');
    await page.waitForLoadState('networkidle');

    const responses = await Promise.all(bodies);
    expect(responses.length).toBeGreaterThan(10);
    for (const { url, text } of responses) {
      expect(text.includes(stack.staffApiKey), `the staff key in ${url}`).toBe(false);
      expect(text.includes(stack.staffAccount.password), `the password in ${url}`).toBe(false);
      expect(API_KEY_PATTERN.test(text), `a key in ${url}`).toBe(false);
      expect(text.includes(credential ?? '\u0000'), `the session credential in ${url}`).toBe(false);
      // The sealed cookie is only ever in Set-Cookie, never in a body.
      expect(text.includes(cookie?.value ?? '\u0000'), `the session in ${url}`).toBe(false);
    }
    const stored = await page.evaluate(() =>
      JSON.stringify({ cookie: document.cookie, local: { ...localStorage } }),
    );
    expect(stored).not.toContain(stack.staffApiKey);
    expect(stored).not.toContain(credential);
    // Nor in what the site wrote to its logs (the main site's output).
    const siteLog = readFileSync(stack.siteLogFile, 'utf8');
    expect(siteLog.length).toBeGreaterThan(0);
    expect(siteLog.includes(credential ?? '\u0000'), 'the session credential in the site log').toBe(
      false,
    );
    expect(siteLog.includes(stack.staffAccount.password), 'the password in the site log').toBe(
      false,
    );
  });
});
