import { STATUS_LOOKS } from '../src/components/status-badge';
import { expect, test } from './fixtures';
import { allPets, apiPages, cardNames, cards, categories } from './helpers';

test.describe('Browse', () => {
  test('shows the newest available animals as cards with name, category and status', async ({
    page,
    stack,
    api,
  }) => {
    const [firstPage] = await apiPages(api, stack.apiUrl, { status: 'available', limit: 12 }, 1);
    const names = new Map((await categories(api)).map((category) => [category.id, category.name]));
    expect(firstPage?.length, 'the seeded database has available animals').toBeGreaterThan(0);

    await page.goto(stack.siteUrl);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find an animal to adopt');
    await expect(cards(page)).toHaveCount(firstPage?.length ?? 0);
    expect(await cardNames(page)).toEqual(firstPage?.map((pet) => pet.name));
    for (const [index, pet] of (firstPage ?? []).entries()) {
      const card = cards(page).nth(index);
      await expect(card).toContainText(names.get(pet.categoryId) ?? 'Other');
      await expect(card).toContainText('Available');
    }
    await expect(page.getByRole('radio', { name: 'Available', exact: true })).toBeChecked();
  });

  test('filters by status; the filter lives in the URL and survives a reload', async ({
    page,
    stack,
    api,
  }) => {
    const [pending] = await apiPages(api, stack.apiUrl, { status: 'pending', limit: 12 }, 1);
    expect(pending?.length, 'the seeded database has pending animals').toBeGreaterThan(0);

    await page.goto(stack.siteUrl);
    await page.getByRole('radio', { name: 'Pending adoption' }).check();
    await expect(page).toHaveURL(/\/\?status=pending$/);
    await expect.poll(() => cardNames(page)).toEqual(pending?.map((pet) => pet.name));
    for (const card of await cards(page).all()) {
      await expect(card).toContainText(STATUS_LOOKS.pending.label);
    }

    await page.reload();
    await expect(page.getByRole('radio', { name: 'Pending adoption' })).toBeChecked();
    expect(await cardNames(page)).toEqual(pending?.map((pet) => pet.name));

    await page.getByRole('radio', { name: 'All' }).check();
    await expect(page).toHaveURL(/\/\?status=all$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/\?status=pending$/);
    await expect(page.getByRole('radio', { name: 'Pending adoption' })).toBeChecked();
  });

  test('filters by category and page size with the keyboard alone', async ({
    page,
    stack,
    api,
  }) => {
    const available = await allPets(api, stack.apiUrl, { status: 'available' });
    const allCategories = await categories(api);
    const firstCategory = allCategories[0];
    expect(firstCategory).toBeDefined();

    await page.goto(stack.siteUrl);
    // Status: arrow keys move between the segmented options.
    await page.getByRole('radio', { name: 'Available', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(/\/\?status=pending$/);
    await page.keyboard.press('ArrowLeft');
    await expect(page).toHaveURL(/\/$/);

    // Category: Tab to the select, arrow down to the first category.
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Category')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page).toHaveURL(new RegExp(`/\\?category=${firstCategory?.id}$`));
    const expected = available
      .filter((pet) => pet.categoryId === firstCategory?.id)
      .slice(0, 12)
      .map((pet) => pet.name);
    await expect.poll(() => cardNames(page)).toEqual(expected);
    await expect(page.getByLabel('Category')).toBeFocused();

    // Page size, still from the keyboard.
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Per page')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page).toHaveURL(new RegExp(`/\\?category=${firstCategory?.id}&limit=24$`));
  });

  test("the list does not prefetch animals' pages (each would cost an API call)", async ({
    page,
    stack,
  }) => {
    const prefetched: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['next-router-prefetch'] && /\/pets\/\d+/.test(request.url())) {
        prefetched.push(request.url());
      }
    });
    await page.goto(stack.siteUrl);
    await cards(page).last().scrollIntoViewIfNeeded();
    await page.waitForLoadState('networkidle');
    expect(prefetched).toEqual([]);
  });

  test('a filter with no animals says so and offers to clear it', async ({ page, stack }) => {
    await page.goto(`${stack.siteUrl}/?category=999999&status=sold`);
    await expect(
      page.getByRole('heading', { name: 'No animals match these filters' }),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/`);
    await expect(cards(page).first()).toBeVisible();
  });

  test('four columns on a desktop, one on a phone', async ({ page, stack }) => {
    await page.goto(stack.siteUrl);
    const lefts = async () =>
      new Set(
        await cards(page).evaluateAll((items) =>
          items.map((item) => Math.round(item.getBoundingClientRect().left)),
        ),
      ).size;
    expect(await lefts()).toBe(4);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(lefts).toBe(1);
    // The filters stack on a phone: each control is as wide as the panel.
    const widths = await page
      .locator('.filters > *:not(noscript):not(.filters__pending)')
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().width)));
    expect(new Set(widths).size).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
