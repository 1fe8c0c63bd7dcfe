import { expect, test } from './fixtures';
import { apiPages, cardNames, categories, uniqueName } from './helpers';
import { signIn } from './staff-helpers';

/** "Add an animal" is staff work: under /staff, behind sign-in, with the staff member's key. */
test.describe('Add an animal', () => {
  test.beforeEach(async ({ page, stack }) => {
    await signIn(page, stack.siteUrl, stack.staffAccount);
  });

  test('the public site has no way to add an animal any more', async ({ browser, stack }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(stack.siteUrl);
    await expect(page.getByRole('link', { name: 'Add an animal' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Staff sign in' })).toBeVisible();
    const gone = await page.goto(`${stack.siteUrl}/pets/new`);
    expect(gone?.status()).toBe(404);
    await context.close();
  });

  test('an invalid submit shows field errors and sends nothing; a valid one lands on the new animal', async ({
    page,
    stack,
    api,
  }) => {
    const category = (await categories(api))[1];
    expect(category).toBeDefined();
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') {
        posts.push(request.url());
      }
    });

    await page
      .getByRole('navigation', { name: 'Staff' })
      .getByRole('link', { name: 'Add an animal' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Add an animal');

    // Nothing filled in: the contract's schema, in the browser, names both problems.
    await page.getByRole('button', { name: 'Add animal' }).click();
    const name = page.getByLabel('Name');
    const categorySelect = page.getByLabel('Category');
    await expect(page.locator('#pet-name-error')).toHaveText('Name must not be empty.');
    await expect(page.locator('#pet-category-error')).toHaveText('Choose a category.');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription(/Name must not be empty\./);
    await expect(categorySelect).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toBeFocused();
    // Spaces only are no name either (ZNewPet trims).
    await name.fill('   ');
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page.locator('#pet-name-error')).toHaveText('Name must not be empty.');
    expect(posts, 'an invalid form is not sent').toEqual([]);

    // Fixing a field clears its message.
    const petName = uniqueName('Juniper');
    await name.fill(petName);
    await expect(page.locator('#pet-name-error')).toHaveCount(0);
    await categorySelect.selectOption({ label: category?.name ?? '' });
    await page.getByRole('radio', { name: 'Pending adoption' }).check();

    // The button is disabled while the form is being sent.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/staff/animals/new', async (route) => {
      if (route.request().method() === 'POST') {
        await held;
      }
      await route.continue();
    });
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page.getByRole('button', { name: 'Adding…' })).toBeDisabled();
    release();

    // It lands on the animal's staff page, ready to be changed.
    await expect(page).toHaveURL(/\/staff\/animals\/\d+\?created=1$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Edit ${petName}`);
    await expect(page.getByRole('status')).toHaveText(
      `${petName} was added and now appears first in the list.`,
    );
    await expect(page.getByLabel('Name')).toHaveValue(petName);
    await expect(page.getByLabel('Category')).toHaveValue(String(category?.id));
    await expect(page.getByRole('radio', { name: 'Pending adoption' })).toBeChecked();

    // It really is in the API, first among the pending animals, and first on the site.
    const id = Number(/\/staff\/animals\/(\d+)/.exec(page.url())?.[1]);
    const [pending] = await apiPages(api, stack.apiUrl, { status: 'pending', limit: 1 }, 1);
    expect(pending?.[0]).toMatchObject({
      id,
      name: petName,
      categoryId: category?.id,
      status: 'pending',
    });
    await page.goto(`${stack.siteUrl}/?status=pending`);
    expect((await cardNames(page))[0]).toBe(petName);
  });

  test("the API's own 400 shows beside the field it names", async ({ page, stack }) => {
    await page.goto(`${stack.siteUrl}/staff/animals/new`);
    await page.getByLabel('Name').fill(uniqueName('Ghost'));
    // A category the browser's schema check cannot know is wrong (a positive integer), but which
    // names no category: only the API can refuse it.
    await page.getByLabel('Category').evaluate((select) => {
      const option = document.createElement('option');
      option.value = '987654321';
      option.textContent = 'A category that was just removed';
      select.append(option);
    });
    await page.getByLabel('Category').selectOption('987654321');
    await page.getByRole('button', { name: 'Add animal' }).click();

    const error = page.locator('#pet-category-error');
    await expect(error).toBeVisible();
    await expect(error).not.toHaveText('');
    await expect(page.getByLabel('Category')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(`${stack.siteUrl}/staff/animals/new`);
    // What the visitor typed is still there.
    await expect(page.getByLabel('Name')).toHaveValue(/^Ghost /);
  });

  test('works without JavaScript too: the server validates with the same schema', async ({
    browser,
    stack,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/new`);
    await page.getByLabel('Name').fill('   ');
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page.locator('#pet-name-error')).toHaveText('Name must not be empty.');
    await expect(page.locator('#pet-category-error')).toHaveText('Choose a category.');
    await context.close();
  });
});
