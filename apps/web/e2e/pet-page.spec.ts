import { readFileSync } from 'node:fs';
import { newAvailablePet } from './adopt-helpers';
import { expect, test } from './fixtures';
import type { TStack } from './harness/stack';
import { apiPages, cardNames, cards, categories, uniqueName } from './helpers';
import { addPhotoThroughApi, makePhoto } from './photo-helpers';

/** The API's `deprecated_operation` warnings about calls made with `key` so far. */
const deprecatedCallsWith = (stack: TStack, key: string): number =>
  readFileSync(stack.apiLogFile, 'utf8')
    .split('\n')
    .filter(
      (line) =>
        line.includes('"event":"deprecated_operation"') &&
        line.includes(`"apiKey":"${key.slice(0, 14)}"`),
    ).length;

test.describe('An animal', () => {
  test('opens from its card and leads back to the same filtered list', async ({
    page,
    stack,
    api,
  }) => {
    const [pending] = await apiPages(api, stack.apiUrl, { status: 'pending', limit: 12 }, 1);
    const pet = pending?.[0];
    expect(pet).toBeDefined();
    const categoryName = (await categories(api)).find((c) => c.id === pet?.categoryId)?.name;

    await page.goto(`${stack.siteUrl}/?status=pending`);
    await cards(page).first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/pets/${pet?.id}\\?from=status%3Dpending$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pet?.name ?? '');
    await expect(page).toHaveTitle(`Meet ${pet?.name} · Kindred Paws`);
    const facts = page.locator('dl.facts');
    await expect(facts).toContainText(`Category${categoryName}`);
    await expect(facts).toContainText('StatusPending adoption');
    await expect(facts).toContainText(`Reference#${pet?.id}`);

    await page.getByRole('link', { name: 'Back to the list' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/?status=pending`);
    await expect(page.getByRole('radio', { name: 'Pending adoption' })).toBeChecked();
    expect(await cardNames(page)).toEqual(pending?.map((p) => p.name));
  });

  test('says what it is good with and what it needs, in words beside each mark, and its fee', async ({
    page,
    stack,
    api,
  }) => {
    const [category] = await categories(api);
    const created = await api.pets.createPet({
      body: {
        name: uniqueName('Juniper'),
        categoryId: category?.id ?? 1,
        goodWithChildren: true,
        goodWithDogs: true,
        goodWithCats: false,
        houseTrained: true,
        vaccinated: false,
        specialNeeds: true,
        specialNeedsNote: 'Deaf in one ear: approach where she can see you.',
        energyLevel: 'high',
        colors: ['black', 'white'],
        adoptionFee: { amount: 19500, currency: 'GBP' },
      },
    });
    expect(created.status).toBe(201);
    const pet = created.body as { id: number; name: string };
    await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
    const details = page.getByRole('region', { name: 'Good with, and needs' });
    await expect(details.getByRole('listitem')).toHaveText([
      'Good with children and dogs',
      'Best in a home without cats',
      'House-trained',
      'Vaccinations not up to date',
      'High energy: needs plenty of exercise and play every day',
    ]);
    // Each mark is an icon hidden from screen readers: the words carry the meaning.
    for (const icon of await details.locator('svg').all()) {
      await expect(icon).toHaveAttribute('aria-hidden', 'true');
    }
    await expect(details.getByRole('heading', { name: 'Special needs' })).toBeVisible();
    await expect(details).toContainText('Deaf in one ear: approach where she can see you.');
    const facts = page.locator('dl.facts');
    await expect(facts).toContainText('ColoursBlack and white');
    await expect(facts).toContainText('Adoption fee£195.00');

    // Nobody has said anything: no block, and the fee is the store's to tell.
    const plain = await newAvailablePet(api, 'Plain');
    await page.goto(`${stack.siteUrl}/pets/${plain.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(plain.name);
    await expect(page.getByRole('region', { name: 'Good with, and needs' })).toHaveCount(0);
    await expect(page.locator('dl.facts')).toContainText('Adoption feeAsk the store');
  });

  test('offers "Apply to adopt" on the first screen, on a laptop (1280 × 900) and on a phone (390 wide)', async ({
    page,
    stack,
    api,
  }) => {
    // All an animal can have above the fold: a tall photo, a long story, every detail.
    const [category] = await categories(api);
    const created = await api.pets.createPet({
      body: {
        name: uniqueName('Foldline'),
        categoryId: category?.id ?? 1,
        status: 'available',
        age: 'young',
        sex: 'female',
        size: 'medium',
        breed: 'Border Collie cross',
        description: Array.from(
          { length: 5 },
          (_, index) =>
            `Paragraph ${index + 1}: she loves long walks, a ball thrown again and again, and a warm spot by the window in the afternoon.`,
        ).join('\n\n'),
        goodWithChildren: true,
        goodWithDogs: true,
        goodWithCats: false,
        houseTrained: true,
        vaccinated: true,
        specialNeeds: true,
        specialNeedsNote: 'Needs a daily tablet with her breakfast.',
        energyLevel: 'high',
        colors: ['black', 'white'],
      },
    });
    expect(created.status).toBe(201);
    const pet = created.body as { id: number; name: string };
    await addPhotoThroughApi(api, pet.id, await makePhoto({ width: 900, height: 1400 }));
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(pet.name);
      await expect(
        page.getByRole('link', { name: 'Apply to adopt' }),
        `at ${viewport.width} × ${viewport.height}`,
      ).toBeInViewport({ ratio: 1 });
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    }
  });

  test('is fetched with the id filter of the list, never with the deprecated getPet', async ({
    page,
    stack,
    api,
  }) => {
    const [[pet] = []] = await apiPages(api, stack.apiUrl, { status: 'available', limit: 1 }, 1);
    expect(pet).toBeDefined();
    const before = deprecatedCallsWith(stack, stack.webApiKey);
    await page.goto(`${stack.siteUrl}/pets/${pet?.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pet?.name ?? '');
    expect((await page.goto(`${stack.siteUrl}/pets/987654321`))?.status()).toBe(404);
    // One call of getPet with the same key, made here: the API logs it, so the count moves by
    // exactly one once the log has it, which shows the site's page views added none.
    expect((await api.pets.getPet({ params: { petId: pet?.id ?? 0 } })).status).toBe(200);
    await expect.poll(() => deprecatedCallsWith(stack, stack.webApiKey)).toBe(before + 1);
  });

  for (const path of ['/pets/987654321', '/pets/abc', '/pets/0', '/no-such-page']) {
    test(`${path} is a calm not-found page with a 404`, async ({ page, stack }) => {
      const response = await page.goto(`${stack.siteUrl}${path}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        "We couldn't find that animal or page",
      );
      await page.getByRole('link', { name: 'See the animals looking for a home' }).click();
      await expect(page).toHaveURL(`${stack.siteUrl}/`);
    });
  }
});
