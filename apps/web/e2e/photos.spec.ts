import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { cards, categories, uniqueName } from './helpers';
import { makePhoto } from './photo-helpers';
import { signIn } from './staff-helpers';

/** The photos of an animal as the API gives them, in order. */
const apiPhotos = async (api: Parameters<typeof categories>[0], petId: number) => {
  const response = await api.pets.listPets({ query: { id: String(petId) } });
  expect(response.status).toBe(200);
  return response.status === 200 ? (response.body[0]?.photos ?? []) : [];
};

const newAnimal = async (api: Parameters<typeof categories>[0], prefix: string) => {
  const [category] = await categories(api);
  const name = uniqueName(prefix);
  const created = await api.pets.createPet({
    body: { name, categoryId: category?.id ?? 1, status: 'available' },
  });
  expect(created.status).toBe(201);
  return { id: created.status === 201 ? created.body.id : 0, name };
};

/** The image has loaded from the API (a real, decoded picture), not just an element. */
const expectLoaded = async (image: Locator) => {
  await expect
    .poll(() =>
      image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth),
    )
    .toBeGreaterThan(0);
};

const uploadThroughForm = async (page: Page, photo: Awaited<ReturnType<typeof makePhoto>>) => {
  await page.getByLabel('Add a photo').setInputFiles({
    name: photo.name,
    mimeType: photo.mimeType,
    buffer: photo.buffer,
  });
};

test.describe('Photos', () => {
  // Each test uploads photos that the API turns into three sizes: seconds on a busy machine.
  test.describe.configure({ timeout: 90_000 });

  test('a staff member uploads a photo; the card and the animal page show it, placeholder first, nothing moving', async ({
    page,
    stack,
    api,
  }) => {
    const animal = await newAnimal(api, 'Photogenic');
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${animal.id}`);
    await expect(page.getByRole('heading', { name: 'Photos' })).toBeVisible();
    await expect(page.getByText('No photos yet.')).toBeVisible();

    const photo = await makePhoto({ width: 1600, height: 1200 });
    await uploadThroughForm(page, photo);
    // A preview of the chosen file, before anything is sent.
    await expectLoaded(page.getByRole('img', { name: `Preview of ${photo.name}` }));
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await expect(page).toHaveURL(/\?photo=added#photos$/);
    await expect(page.getByRole('status')).toHaveText('Photo added.');
    const list = page.getByRole('list', { name: `Photos of ${animal.name}` });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Main photo');

    const [stored] = await apiPhotos(api, animal.id);
    expect(stored?.sizes.map((size) => size.width)).toEqual([160, 480, 1200]);

    // The public card: srcset of the API's files, the box sized, the ThumbHash as its background.
    await page.goto(`${stack.siteUrl}/?name=${encodeURIComponent(animal.name)}`);
    await expect(cards(page)).toHaveCount(1);
    const cardImage = cards(page).first().locator('img');
    await expect(cardImage).toHaveAttribute(
      'srcset',
      (stored?.sizes ?? []).map((size) => `${size.url} ${size.width}w`).join(', '),
    );
    await expect(cardImage).toHaveAttribute('width', '1200');
    await expect(cardImage).toHaveAttribute('height', '900');
    await expect(cardImage).toHaveAttribute('sizes', /.+/);
    expect(await cardImage.evaluate((element) => element.style.backgroundImage)).toMatch(
      /^url\("data:image\/png;base64,/,
    );
    await expectLoaded(cardImage);
    // The card's drawing is gone: the photo replaces it.
    await expect(cards(page).first().locator('[data-illustration]')).toHaveCount(0);

    // The animal page: the photo, named by the animal.
    await cards(page).first().getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(animal.name);
    const hero = page.getByRole('img', { name: animal.name, exact: true });
    await expectLoaded(hero);
    const src = await hero.evaluate((element: HTMLImageElement) => element.currentSrc);
    expect(stored?.sizes.map((size) => size.url)).toContain(src);
  });

  test('photos are reordered and removed with buttons; the first is the one on the card', async ({
    page,
    stack,
    api,
  }) => {
    const animal = await newAnimal(api, 'Twosome');
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${animal.id}`);
    await uploadThroughForm(page, await makePhoto({ background: '#e6c08a' }));
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await expect(page.getByRole('status')).toHaveText('Photo added.');
    await uploadThroughForm(
      page,
      await makePhoto({ format: 'png', width: 600, height: 800, background: '#9ec1d9' }),
    );
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await expect(
      page.getByRole('list', { name: `Photos of ${animal.name}` }).getByRole('listitem'),
    ).toHaveCount(2);
    const [first, second] = await apiPhotos(api, animal.id);

    // The first cannot move earlier, the last cannot move later.
    await expect(page.getByRole('button', { name: 'Move earlier: photo 1' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Move later: photo 2' })).toBeDisabled();
    await page.getByRole('button', { name: 'Move earlier: photo 2' }).click();
    await expect(page.getByRole('status')).toHaveText('Photo order saved.');
    expect((await apiPhotos(api, animal.id)).map((photo) => photo.id)).toEqual([
      second?.id,
      first?.id,
    ]);
    await page.goto(`${stack.siteUrl}/?name=${encodeURIComponent(animal.name)}`);
    await expect(cards(page).first().locator('img')).toHaveAttribute(
      'srcset',
      new RegExp(`^${second?.sizes[0]?.url.replace(/[.?]/g, '\\$&')} `),
    );
    // The animal page shows both: the main one and the other, as a link to its full size.
    await cards(page).first().getByRole('link').click();
    const more = page.getByRole('list', { name: `More photos of ${animal.name}` });
    await expect(more.getByRole('img', { name: `${animal.name}, photo 2 of 2` })).toBeVisible();
    await expect(more.getByRole('link')).toHaveAttribute('href', first?.sizes.at(-1)?.url ?? '');

    await page.goto(`${stack.siteUrl}/staff/animals/${animal.id}`);
    await page.getByRole('button', { name: 'Remove: photo 1' }).click();
    await expect(page.getByRole('status')).toHaveText('Photo removed.');
    expect((await apiPhotos(api, animal.id)).map((photo) => photo.id)).toEqual([first?.id]);
  });

  test('uploading works without JavaScript; a file that is not a picture is refused in words', async ({
    browser,
    page,
    stack,
    api,
  }) => {
    const animal = await newAnimal(api, 'Plainweb');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await signIn(plain, stack.siteUrl, stack.staffAccount);
    await plain.goto(`${stack.siteUrl}/staff/animals/${animal.id}`);
    await uploadThroughForm(plain, await makePhoto({ format: 'webp' }));
    await plain.getByRole('button', { name: 'Upload photo' }).click();
    await expect(plain.getByRole('status')).toHaveText('Photo added.');
    expect(await apiPhotos(api, animal.id)).toHaveLength(1);
    // Nothing chosen: the server says so.
    await plain.getByRole('button', { name: 'Upload photo' }).click();
    await expect(plain.locator('#photo-file-error')).toHaveText('Choose a photo to upload.');
    await context.close();

    // A text file calling itself a JPEG: the API tells from its bytes, the page in our words.
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${animal.id}`);
    await page.getByLabel('Add a photo').setInputFiles({
      name: 'holiday.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('This is not a picture at all, only some words.'),
    });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await expect(page.locator('#photo-file-error')).toHaveText(
      'This file is not a JPEG, PNG or WebP picture, whatever its name says. Choose a photo in one of those formats.',
    );
    await expect(page.locator('#photo-file-error')).toBeFocused();
    expect(await apiPhotos(api, animal.id)).toHaveLength(1);
  });
});
