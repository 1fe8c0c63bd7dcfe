import { expect, test } from './fixtures';
import { allPets, apiPages, cardNames, categories, chunk, uniqueName } from './helpers';

test.describe('Pages', () => {
  test('Next walks every page the API gives, Previous walks back, filters kept', async ({
    page,
    stack,
    api,
  }) => {
    const expected = await apiPages(api, stack.apiUrl, { limit: 12 });
    expect(expected.length, 'the seeded database fills more than one page').toBeGreaterThan(1);

    await page.goto(`${stack.siteUrl}/?status=all`);
    await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0);
    const seen: string[][] = [await cardNames(page)];
    for (let index = 1; index < expected.length; index += 1) {
      await page.getByRole('link', { name: 'Next' }).click();
      await expect(page).toHaveURL(/status=all&cursor=/);
      await expect.poll(() => cardNames(page)).toEqual(expected[index]?.map((pet) => pet.name));
      seen.push(await cardNames(page));
    }
    await expect(page.getByRole('link', { name: 'Next' })).toHaveCount(0);
    expect(seen).toEqual(expected.map((pets) => pets.map((pet) => pet.name)));

    // A page's address is shareable: a reload shows the same page, with Previous still working.
    const lastUrl = page.url();
    await page.reload();
    expect(await cardNames(page)).toEqual(seen.at(-1));

    for (let index = expected.length - 2; index >= 0; index -= 1) {
      await page.getByRole('link', { name: 'Previous' }).click();
      await expect.poll(() => cardNames(page)).toEqual(seen[index]);
    }
    await expect(page).toHaveURL(`${stack.siteUrl}/?status=all`);
    await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0);
    // The trail of the pages in between, without an empty `back=` for the first page.
    const back = new URL(lastUrl).searchParams.getAll('back');
    expect(back).toHaveLength(Math.max(0, expected.length - 2));
    expect(back.filter((value) => value === '')).toEqual([]);
  });

  test('pages through one category with the API categoryId filter', async ({
    page,
    stack,
    api,
  }) => {
    const category = (await categories(api)).at(-1);
    expect(category).toBeDefined();
    // Enough animals of one category for three pages of 12.
    for (let index = 0; index < 26; index += 1) {
      const response = await api.pets.createPet({
        body: { name: uniqueName(`Paging ${index}`), categoryId: category?.id ?? 0 },
      });
      expect(response.status).toBe(201);
    }
    const expected = chunk(
      (await allPets(api, stack.apiUrl, { status: 'available' }))
        .filter((pet) => pet.categoryId === category?.id)
        .map((pet) => pet.name),
      12,
    );
    expect(expected.length).toBeGreaterThanOrEqual(3);

    await page.goto(`${stack.siteUrl}/?category=${category?.id}`);
    await expect(page.getByLabel('Category')).toHaveValue(String(category?.id));
    expect(await cardNames(page)).toEqual(expected[0]);
    for (let index = 1; index < expected.length; index += 1) {
      await page.getByRole('link', { name: 'Next' }).click();
      await expect.poll(() => cardNames(page)).toEqual(expected[index]);
      await expect(page).toHaveURL(new RegExp(`category=${category?.id}`));
    }
    await expect(page.getByRole('link', { name: 'Next' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Previous' }).click();
    await expect.poll(() => cardNames(page)).toEqual(expected.at(-2));
  });
});
