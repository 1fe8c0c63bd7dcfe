import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { categories, uniqueName } from './helpers';
import { addPhotoThroughApi, makePhoto } from './photo-helpers';

/** The page's `<meta property|name=...>` contents, as a crawler reads them from the HTML. */
const metaTags = async (page: Page): Promise<Record<string, string>> =>
  page.evaluate(() =>
    Object.fromEntries(
      [...document.head.querySelectorAll('meta[property], meta[name]')].map((meta) => [
        meta.getAttribute('property') ?? meta.getAttribute('name') ?? '',
        meta.getAttribute('content') ?? '',
      ]),
    ),
  );

const REQUIRED_OPEN_GRAPH = ['og:title', 'og:type', 'og:image', 'og:url', 'og:description'];

test.describe('Sharing an animal', () => {
  test('its page carries a valid preview with its photo, or a drawn picture without one', async ({
    page,
    stack,
    api,
    request,
  }) => {
    test.setTimeout(60_000);
    const [category] = await categories(api);
    const make = async (name: string) => {
      const created = await api.pets.createPet({
        body: {
          name,
          categoryId: category?.id ?? 1,
          age: 'young',
          sex: 'female',
          description: 'Loves long walks. Shy at first.',
        },
      });
      expect(created.status).toBe(201);
      return created.status === 201 ? created.body.id : 0;
    };
    const withPhoto = await make(uniqueName('Preview'));
    await addPhotoThroughApi(api, withPhoto, await makePhoto());
    const withoutPhoto = await make(uniqueName('Drawn'));

    for (const petId of [withPhoto, withoutPhoto]) {
      const response = await request.get(`${stack.siteUrl}/pets/${petId}`);
      expect(response.status()).toBe(200);
      await page.goto(`${stack.siteUrl}/pets/${petId}`);
      const tags = await metaTags(page);
      for (const tag of REQUIRED_OPEN_GRAPH) {
        expect(tags[tag], tag).toBeTruthy();
      }
      const name = await page.getByRole('heading', { level: 1 }).textContent();
      expect(tags['og:title']).toBe(`Meet ${name}`);
      expect(tags['og:url']).toBe(`${stack.siteUrl}/pets/${petId}`);
      expect(tags['og:description']).toContain('Loves long walks.');
      expect(tags['twitter:card']).toBe('summary_large_image');
      expect(tags['twitter:image']).toBe(tags['og:image']);
      expect(Number(tags['og:image:width'])).toBeGreaterThan(0);

      // The picture itself answers, as an image, to a client with no cookie (a crawler).
      const image = await request.get(tags['og:image'] ?? '');
      expect(image.status()).toBe(200);
      expect(image.headers()['content-type']).toMatch(/^image\//);
      expect((await image.body()).length).toBeGreaterThan(1000);
      if (petId === withoutPhoto) {
        expect(tags['og:image']).toBe(`${stack.siteUrl}/pets/${petId}/preview-image`);
        expect(image.headers()['content-type']).toBe('image/png');
      } else {
        expect(tags['og:image']).not.toContain('/preview-image');
      }

      // schema.org data of the page: about this animal, published by the store.
      const data = JSON.parse(
        (await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
      );
      expect(data['@type']).toBe('WebPage');
      expect(data.mainEntity.name).toBe(name);
      expect(data.publisher['@type']).toBe('AnimalShelter');
      expect(data.primaryImageOfPage.url).toBe(tags['og:image']);
    }
    expect((await request.get(`${stack.siteUrl}/pets/987654321/preview-image`)).status()).toBe(404);
  });

  test('"Share" copies the address where the browser has no share sheet', async ({
    page,
    context,
    stack,
    api,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: stack.siteUrl,
    });
    await page.addInitScript(() => {
      // Desktop Chromium may offer a share sheet; the fallback is what this test is about.
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined });
    });
    const [pet] = (await api.pets.listPets({ query: { status: 'available', limit: 1 } })).body as {
      id: number;
    }[];
    await page.goto(`${stack.siteUrl}/pets/${pet?.id}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${stack.siteUrl}/pets/${pet?.id}`,
    );
  });

  test('"Share" hands the page to the device\'s share sheet when there is one', async ({
    page,
    stack,
    api,
  }) => {
    await page.addInitScript(() => {
      const shared: ShareData[] = [];
      Object.assign(window, { shared });
      Object.defineProperty(Navigator.prototype, 'share', {
        value: async (data: ShareData) => {
          shared.push(data);
        },
      });
    });
    const [pet] = (await api.pets.listPets({ query: { status: 'available', limit: 1 } })).body as {
      id: number;
      name: string;
    }[];
    await page.goto(`${stack.siteUrl}/pets/${pet?.id}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared))
      .toEqual([
        expect.objectContaining({
          title: `Meet ${pet?.name}`,
          url: `${stack.siteUrl}/pets/${pet?.id}`,
        }),
      ]);
  });

  test('prints as a one-page kennel card without the site around it', async ({
    page,
    stack,
    api,
  }) => {
    const [pet] = (await api.pets.listPets({ query: { status: 'available', limit: 1 } })).body as {
      id: number;
    }[];
    await page.goto(`${stack.siteUrl}/pets/${pet?.id}`);
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.site-header')).toBeHidden();
    await expect(page.locator('.pet__actions')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('dl.facts')).toContainText(`#${pet?.id}`);
    const pdf = await page.pdf({ format: 'A4' });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages).toHaveLength(1);
  });

  test('the favourites page passes axe at desktop and phone width', async ({
    page,
    stack,
    api,
  }) => {
    const ids = ((await api.pets.listPets({ query: { limit: 3 } })).body as { id: number }[]).map(
      (pet) => pet.id,
    );
    await page.goto(`${stack.siteUrl}/favourites?ids=${ids.join(',')}`);
    await expect(page.getByRole('list', { name: 'Favourite animals' })).toBeVisible();
    await expectNoSeriousViolations(page, 'Favourites');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.siteUrl}/favourites`);
    await expectNoSeriousViolations(page, 'Favourites, empty, on a phone');
  });
});
