import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { WEB_DIR } from './harness/paths';
import { cards, uniqueName } from './helpers';

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
    await page.getByRole('link', { name: 'Add an animal' }).click();
    await page.getByRole('button', { name: 'Add animal' }).click();
    await page.getByLabel('Name').fill(uniqueName('Secret keeper'));
    await page.getByLabel('Category').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page).toHaveURL(/created=1/);
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
    const files = filesUnder(join(WEB_DIR, '.next', 'static'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(API_KEY_PATTERN.test(readFileSync(file, 'utf8')), file).toBe(false);
    }
  });
});
