import { STATUS_LOOKS } from '../src/components/status-badge';
import { expect, test } from './fixtures';
import { allPets, apiPages, cardNames, cards, categories, uniqueName } from './helpers';

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

    // Sex, age and size come next, what the home needs and the order; then the page size, still
    // from the keyboard.
    for (const label of [
      'Sex',
      'Age',
      'Size',
      'Children',
      'Dogs',
      'Cats',
      'House-trained',
      'Order',
      'Per page',
    ]) {
      await page.keyboard.press('Tab');
      await expect(page.getByLabel(label, { exact: true })).toBeFocused();
    }
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
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });

  test('on a phone the filters fold behind one control and the list starts on the first screen', async ({
    page,
    stack,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.siteUrl}/?category=1`);
    const toggle = page.locator('.filters__toggle');
    await expect(toggle).toBeVisible();
    // What is chosen shows on the control itself.
    await expect(toggle).toContainText('Filters');
    await expect(toggle).toContainText('Available');
    await expect(toggle).toContainText('1 chosen');
    await expect(page.getByLabel('Category')).toBeHidden();
    await expect(page.getByLabel('Name')).toBeVisible();
    const form = await page.getByRole('form', { name: 'Filter animals' }).boundingBox();
    expect(form?.height, 'the filters take a small part of the screen').toBeLessThan(844 * 0.2);
    const firstCard = await cards(page).first().boundingBox();
    expect(firstCard?.y, 'the first animal starts on the first screen').toBeLessThan(844 * 0.6);

    // Opened, every choice is there, one under the other, as wide as the panel.
    await toggle.click();
    await expect(page.getByLabel('Category')).toBeVisible();
    const widths = await page
      .locator('.filters__panel > :not(noscript)')
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().width)));
    expect(new Set(widths).size).toBe(1);
    await page.getByLabel('Sex', { exact: true }).selectOption({ label: 'Female' });
    await expect(page).toHaveURL(/\/\?category=1&sex=female$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    // On a desktop the same choices are always in view, without the control.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(toggle).toBeHidden();
    await expect(page.getByLabel('Category')).toBeVisible();
  });
});

test.describe('Browse by what matters to adopters', () => {
  test('sex, age, size and a name search in the URL give the animals the API gives, and how many', async ({
    page,
    stack,
    api,
  }) => {
    const [category] = await categories(api);
    // A family of animals sharing a rare word of their names, with different profiles.
    // It starts with a letter, so the search "<word> 3" cannot also find "<word> 4" by the first
    // word (every word of a search matches the start of a word of the name).
    const word = `q${uniqueName('Quokka').split(' ')[1] ?? 'uokka'}`;
    const profiles = [
      { sex: 'female', age: 'young', size: 'small' },
      { sex: 'female', age: 'young', size: 'large' },
      { sex: 'male', age: 'young', size: 'small' },
      { sex: 'female', age: 'senior', size: 'small' },
      { sex: 'female', age: 'young', size: 'small' },
    ] as const;
    for (const [index, profile] of profiles.entries()) {
      const created = await api.pets.createPet({
        body: { name: `${word} ${index}`, categoryId: category?.id ?? 1, ...profile },
      });
      expect(created.status).toBe(201);
    }
    const query = { sex: 'female', age: 'young', size: 'small', name: word } as const;
    const expected = (await allPets(api, stack.apiUrl, query)).map((pet) => pet.name);
    expect(expected).toEqual([`${word} 4`, `${word} 0`]);

    await page.goto(
      `${stack.siteUrl}/?sex=female&age=young&size=small&name=${encodeURIComponent(word)}`,
    );
    expect(await cardNames(page)).toEqual(expected);
    await expect(page.getByRole('status').filter({ hasText: 'match' })).toHaveText(
      '2 animals match',
    );
    await expect(page.getByLabel('Name')).toHaveValue(word);
    await expect(page.getByLabel('Sex', { exact: true })).toHaveValue('female');

    // Changing one filter keeps the others and drops nothing but it.
    await page.getByLabel('Size', { exact: true }).selectOption({ label: 'Large' });
    await expect(page).toHaveURL(
      `${stack.siteUrl}/?sex=female&age=young&size=large&name=${encodeURIComponent(word)}`,
    );
    await expect.poll(() => cardNames(page)).toEqual([`${word} 1`]);
    await expect(page.getByRole('status').filter({ hasText: 'match' })).toHaveText(
      '1 animal matches',
    );
    await page.getByLabel('Size', { exact: true }).selectOption({ label: 'Any' });
    await page.getByLabel('Age', { exact: true }).selectOption({ label: 'Any' });
    await expect(page).toHaveURL(`${stack.siteUrl}/?sex=female&name=${encodeURIComponent(word)}`);
    await expect
      .poll(() => cardNames(page))
      .toEqual([`${word} 4`, `${word} 3`, `${word} 1`, `${word} 0`]);

    // The search box: a new word on Enter, cleared to show everyone.
    await page.getByLabel('Name').fill(`${word} 3`);
    await page.getByLabel('Name').press('Enter');
    await expect(page).toHaveURL(
      `${stack.siteUrl}/?sex=female&name=${encodeURIComponent(`${word} 3`).replace(/%20/g, '+')}`,
    );
    await expect.poll(() => cardNames(page)).toEqual([`${word} 3`]);
    // The animal page's way back returns to the same search.
    await cards(page).first().getByRole('link').click();
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await expect.poll(() => cardNames(page)).toEqual([`${word} 3`]);
    await expect(page.getByLabel('Name')).toHaveValue(`${word} 3`);
  });

  test('"known to be good with" keeps the animals known to be so, and the order changes the list', async ({
    page,
    stack,
    api,
  }) => {
    const [category] = await categories(api);
    const word = `z${uniqueName('Zorilla').split(' ')[1] ?? 'orilla'}`;
    // Good with cats, not, and nobody knows: only the first is "good with cats".
    for (const [suffix, goodWithCats] of [
      ['Bramble', true],
      ['Acorn', false],
      ['Clover', null],
      ['Aster', true],
    ] as const) {
      const created = await api.pets.createPet({
        body: { name: `${word} ${suffix}`, categoryId: category?.id ?? 1, goodWithCats },
      });
      expect(created.status).toBe(201);
    }
    await page.goto(`${stack.siteUrl}/?name=${word}`);
    await expect
      .poll(() => cardNames(page))
      .toEqual([`${word} Aster`, `${word} Clover`, `${word} Acorn`, `${word} Bramble`]);

    await page.getByRole('checkbox', { name: 'Cats', exact: true }).check();
    await expect(page).toHaveURL(`${stack.siteUrl}/?name=${word}&goodWithCats=true`);
    const expected = (await allPets(api, stack.apiUrl, { name: word, goodWithCats: true })).map(
      (pet) => pet.name,
    );
    expect(expected).toEqual([`${word} Aster`, `${word} Bramble`]);
    await expect.poll(() => cardNames(page)).toEqual(expected);

    await page.getByLabel('Order').selectOption({ label: 'Name, A to Z' });
    await expect(page).toHaveURL(`${stack.siteUrl}/?name=${word}&goodWithCats=true&sort=name`);
    await expect.poll(() => cardNames(page)).toEqual([`${word} Aster`, `${word} Bramble`]);
    await page.getByRole('checkbox', { name: 'Cats', exact: true }).uncheck();
    await expect
      .poll(() => cardNames(page))
      .toEqual([`${word} Acorn`, `${word} Aster`, `${word} Bramble`, `${word} Clover`]);
    await expect(page).toHaveURL(`${stack.siteUrl}/?name=${word}&sort=name`);
  });

  test('the plain first page shows the new arrivals above the list; a filtered one does not', async ({
    page,
    stack,
    api,
  }) => {
    const row = page.getByRole('region', { name: 'New arrivals' });
    // Other tests may record an arrival meanwhile: the row and the API agree once both are read
    // after it (the site caches public reads for a few seconds).
    await expect
      .poll(
        async () => {
          const [arrived] = await apiPages(
            api,
            stack.apiUrl,
            { status: 'available', sort: 'arrived', limit: 4 },
            1,
          );
          await page.goto(stack.siteUrl);
          const shown = await row.getByRole('heading', { level: 3 }).allInnerTexts();
          return (
            shown.length === 4 && shown.join('|') === arrived?.map((pet) => pet.name).join('|')
          );
        },
        { timeout: 30_000, intervals: [1_000, 2_000, 5_000] },
      )
      .toBe(true);
    // Above the filters, and not counted in the list's cards.
    const rowBox = await row.boundingBox();
    const filtersBox = await page.getByRole('form', { name: 'Filter animals' }).boundingBox();
    expect(rowBox?.y ?? 0).toBeLessThan(filtersBox?.y ?? 0);
    await page.goto(`${stack.siteUrl}/?sex=female`);
    await expect(cards(page).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'New arrivals' })).toHaveCount(0);
  });

  test('without JavaScript the filters form still works, and its empty fields leave the address', async ({
    browser,
    stack,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(stack.siteUrl);
    await page.getByLabel('Sex', { exact: true }).selectOption({ label: 'Male' });
    await page.getByRole('button', { name: 'Show animals' }).click();
    // The form sent every field (`category=&age=&...`); the page answers at the tidy address.
    await expect(page).toHaveURL(`${stack.siteUrl}/?sex=male`);
    for (const card of await cards(page).all()) {
      await expect(card.locator('.card__facts')).toContainText('Male');
    }
    await context.close();
  });
});
