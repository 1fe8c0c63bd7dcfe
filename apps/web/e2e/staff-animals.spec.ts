import { expect, test } from './fixtures';
import { categories, uniqueName } from './helpers';
import { signIn } from './staff-helpers';

test.describe('Staff edit an animal', () => {
  test('name, category and status change; the public page shows the change', async ({
    page,
    stack,
    api,
  }) => {
    const [first, second] = await categories(api);
    const created = await api.pets.createPet({
      body: { name: uniqueName('Before'), categoryId: first?.id ?? 1, status: 'available' },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    await signIn(page, stack.siteUrl, stack.staffApiKey);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    const renamed = uniqueName('After');
    await page.getByLabel('Name').fill(renamed);
    await page.getByLabel('Category').selectOption({ label: second?.name ?? '' });
    await page.getByRole('radio', { name: 'Adopted' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(/saved=1$/);
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Edit ${renamed}`);

    await page.goto(`${stack.siteUrl}/pets/${petId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(renamed);
    await expect(page.locator('dl.facts')).toContainText(`Category${second?.name}`);
    await expect(page.locator('dl.facts')).toContainText('StatusAdopted');
  });

  test('an open application keeps the animal pending: the 409 in plain words, input kept', async ({
    page,
    stack,
    api,
  }) => {
    const [category] = await categories(api);
    const name = uniqueName('Promised');
    const created = await api.pets.createPet({
      body: { name, categoryId: category?.id ?? 1, status: 'available' },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    await api.orders.placeOrder({
      body: { petId, adopter: { name: 'Emmy Noether', email: 'emmy@example.org' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    await signIn(page, stack.siteUrl, stack.staffApiKey);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await expect(page.getByRole('radio', { name: 'Pending adoption' })).toBeChecked();
    await page.getByLabel('Name').fill(`${name} II`);
    await page.getByRole('radio', { name: 'Available' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#pet-status-available-error')).toHaveText(
      'This animal has an open adoption application, so it stays "Pending adoption". Complete or cancel the application instead.',
    );
    await expect(page.getByLabel('Name')).toHaveValue(`${name} II`);
    await expect(page.getByRole('radio', { name: 'Available' })).toBeChecked();
    const stored = await api.pets.listPets({ query: { id: String(petId) } });
    expect(stored.status === 200 && stored.body[0]).toMatchObject({ name, status: 'pending' });
  });
});
