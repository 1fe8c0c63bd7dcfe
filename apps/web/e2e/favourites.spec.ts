import { expect, test } from './fixtures';
import { cardNames, cards } from './helpers';

test.describe('Favourites', () => {
  test('hearts survive a reload, list on /favourites and travel as a link', async ({
    page,
    browser,
    stack,
  }) => {
    await page.goto(stack.siteUrl);
    const [first, second] = (await cardNames(page)).slice(0, 2);
    const heart = (name: string | undefined) =>
      page.getByRole('button', { name: `Save ${name} to favourites` });
    await heart(first).click();
    await heart(second).click();
    await expect(heart(first)).toHaveAttribute('aria-pressed', 'true');

    await page.reload();
    await expect(heart(first)).toHaveAttribute('aria-pressed', 'true');
    await expect(heart(second)).toHaveAttribute('aria-pressed', 'true');
    await expect(cards(page).nth(2).getByRole('button')).toHaveAttribute('aria-pressed', 'false');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Favourites' })
      .click();
    await expect(page).toHaveURL(/\/favourites\?ids=\d+,\d+$/);
    await expect.poll(() => cardNames(page)).toEqual([second, first]); // newest heart first
    const shared = page.url();

    // Someone the link is sent to sees the same animals, with hearts of their own (none).
    const friend = await browser.newContext();
    const friendPage = await friend.newPage();
    await friendPage.goto(shared);
    await expect.poll(() => cardNames(friendPage)).toEqual([second, first]);
    await expect(
      friendPage.getByRole('button', { name: `Save ${first} to favourites` }),
    ).toHaveAttribute('aria-pressed', 'false');
    await friend.close();

    // Taking a heart away on the visitor's own list updates the list and its link.
    await heart(second).click();
    await expect.poll(() => cardNames(page)).toEqual([first]);
    await expect(page).toHaveURL(/\/favourites\?ids=\d+$/);
  });

  test("an animal's page has the same heart as its card, and says when it is saved", async ({
    page,
    stack,
  }) => {
    await page.goto(stack.siteUrl);
    const card = cards(page).first();
    const name = await card.getByRole('heading').textContent();
    await card.getByRole('heading').getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name ?? '');
    const save = page.getByRole('button', { name: `Save ${name} to favourites` });
    await expect(save).toHaveText('Save');
    const petPage = page.url();
    await save.click();
    // Saved: the button says so, and a screen reader hears the same word first, then what a press
    // does now.
    const saved = page.getByRole('button', { name: `Saved: remove ${name} from favourites` });
    await expect(saved).toHaveText('Saved');
    await expect(save).toHaveCount(0);
    await page.reload();
    await expect(saved).toHaveText('Saved');
    await page.goto(`${stack.siteUrl}/favourites`);
    await expect(page).toHaveURL(/\/favourites\?ids=\d+$/);
    await expect.poll(() => cardNames(page)).toEqual([name]);

    // And back: pressed again, it is no longer saved, and says "Save".
    await page.goto(petPage);
    await saved.click();
    await expect(save).toHaveText('Save');
    await expect(saved).toHaveCount(0);
    await page.goto(`${stack.siteUrl}/favourites`);
    await expect(page.getByRole('heading', { name: 'No favourites yet' })).toBeVisible();
  });
});
