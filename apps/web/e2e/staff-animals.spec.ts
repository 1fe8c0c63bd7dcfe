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
    await signIn(page, stack.siteUrl, stack.staffAccount);
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

  test('an approved application keeps the animal pending: the 409 in plain words, input kept', async ({
    page,
    stack,
    api,
    staffApi,
  }) => {
    const [category] = await categories(api);
    const name = uniqueName('Promised');
    const created = await api.pets.createPet({
      body: { name, categoryId: category?.id ?? 1, status: 'available' },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    const placed = await api.orders.placeOrder({
      body: { petId, adopter: { name: 'Emmy Noether', email: 'emmy@example.org' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const approved = await staffApi.orders.approveOrder({
      params: { orderId: placed.status === 201 ? placed.body.id : 0 },
    });
    expect(approved.status).toBe(200);
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await expect(page.getByRole('radio', { name: 'Pending adoption' })).toBeChecked();
    await page.getByLabel('Name').fill(`${name} II`);
    await page.getByRole('radio', { name: 'Available' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#pet-status-available-error')).toHaveText(
      'This animal is set aside for an approved application, so it stays "Pending adoption". Decline, complete or cancel that application instead.',
    );
    await expect(page.getByLabel('Name')).toHaveValue(`${name} II`);
    await expect(page.getByRole('radio', { name: 'Available' })).toBeChecked();
    const stored = await api.pets.listPets({ query: { id: String(petId) } });
    expect(stored.status === 200 && stored.body[0]).toMatchObject({ name, status: 'pending' });
  });
});

test.describe('Staff write an animal profile', () => {
  test('sex, age, size, breed, arrival and story are saved, shown in plain words, and cleared', async ({
    page,
    stack,
    api,
  }) => {
    const [category] = await categories(api);
    const name = uniqueName('Storied');
    const created = await api.pets.createPet({
      body: { name, categoryId: category?.id ?? 1, status: 'available' },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await page.getByLabel('Sex', { exact: true }).selectOption({ label: 'Female' });
    await page.getByLabel('Age', { exact: true }).selectOption({ label: 'Young' });
    await page.getByLabel('Size when grown').selectOption({ label: 'Medium' });
    await page.getByLabel('Breed').fill('Beagle mix');
    await page.getByLabel('Arrival date').fill('2026-03-03');
    await page
      .getByLabel('Story')
      .fill('Loves long walks.\nNaps in the sun.\n\nGets on well with children.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await expect(page.getByLabel('Breed')).toHaveValue('Beagle mix');

    const stored = await api.pets.listPets({ query: { id: String(petId) } });
    expect(stored.status === 200 && stored.body[0]).toMatchObject({
      sex: 'female',
      age: 'young',
      size: 'medium',
      breed: 'Beagle mix',
      arrivedAt: '2026-03-03',
      description: 'Loves long walks.\nNaps in the sun.\n\nGets on well with children.',
    });

    await page.goto(`${stack.siteUrl}/pets/${petId}`);
    const thisYear = new Date().getUTCFullYear() === 2026;
    await expect(page.locator('.pet__profile')).toHaveText(
      `Young · Female · Medium · Arrived 3 March${thisYear ? '' : ' 2026'}`,
    );
    const story = page.getByRole('region', { name: `About ${name}` });
    await expect(story.locator('p')).toHaveText([
      'Loves long walks.\nNaps in the sun.',
      'Gets on well with children.',
    ]);
    await expect(page.locator('dl.facts')).toContainText('BreedBeagle mix');
    // On the card: age, sex and size.
    await page.goto(`${stack.siteUrl}/?name=${encodeURIComponent(name)}`);
    await expect(page.locator('.card__facts')).toHaveText('Young · Female · Medium');

    // Blank again means "not known": cleared in the API, left out of the page.
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await page.getByLabel('Age', { exact: true }).selectOption({ label: 'Not said' });
    await page.getByLabel('Breed').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const cleared = await api.pets.listPets({ query: { id: String(petId) } });
    expect(cleared.status === 200 && cleared.body[0]).toMatchObject({ age: null, breed: null });
    await page.goto(`${stack.siteUrl}/pets/${petId}`);
    await expect(page.locator('.pet__profile')).toHaveText(/^Female · Medium · Arrived 3 March/);
    await expect(page.locator('dl.facts')).not.toContainText('Breed');
  });

  test('what it is good with, its needs, colours and fee are saved, shown, and cleared', async ({
    page,
    stack,
    api,
  }) => {
    const [category] = await categories(api);
    const name = uniqueName('Detailed');
    const created = await api.pets.createPet({
      body: { name, categoryId: category?.id ?? 1, status: 'available' },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await page.getByLabel('Good with children').selectOption({ label: 'Yes' });
    await page.getByLabel('Good with cats').selectOption({ label: 'No' });
    await page.getByLabel('Special needs', { exact: true }).selectOption({ label: 'Yes' });
    await page.getByLabel('About the special needs').fill('Needs a ramp to the sofa.');
    await page.getByLabel('Energy').selectOption('low');
    await page.getByLabel('Main colour').selectOption({ label: 'Black' });
    await page.getByLabel('Second colour').selectOption({ label: 'White' });
    // An amount with three decimals is refused in words, before anything is sent.
    await page.getByLabel('Adoption fee').fill('95.505');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#pet-adoption-fee-error')).toHaveText(
      'Write the fee as an amount, such as 95.00, or leave it blank to say "ask the store".',
    );
    await page.getByLabel('Adoption fee').fill('95.50');
    await page.getByLabel('Currency of the fee').selectOption('EUR');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await expect(page.getByLabel('Adoption fee')).toHaveValue('95.50');

    const stored = await api.pets.listPets({ query: { id: String(petId) } });
    expect(stored.status === 200 && stored.body[0]).toMatchObject({
      goodWithChildren: true,
      goodWithDogs: null,
      goodWithCats: false,
      specialNeeds: true,
      specialNeedsNote: 'Needs a ramp to the sofa.',
      energyLevel: 'low',
      colors: ['black', 'white'],
      adoptionFee: { amount: 9550, currency: 'EUR' },
    });

    await page.goto(`${stack.siteUrl}/pets/${petId}`);
    const details = page.getByRole('region', { name: 'Good with, and needs' });
    await expect(details).toContainText('Good with children');
    await expect(details).toContainText('Best in a home without cats');
    await expect(details).toContainText('Needs a ramp to the sofa.');
    await expect(page.locator('dl.facts')).toContainText('ColoursBlack and white');
    await expect(page.locator('dl.facts')).toContainText('Adoption fee€95.50');

    // "Not known" and blanks clear them again.
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await page.getByLabel('Good with children').selectOption({ label: 'Not known' });
    await page.getByLabel('Main colour').selectOption({ label: 'None' });
    await page.getByLabel('Second colour').selectOption({ label: 'None' });
    await page.getByLabel('Adoption fee').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const cleared = await api.pets.listPets({ query: { id: String(petId) } });
    expect(cleared.status === 200 && cleared.body[0]).toMatchObject({
      goodWithChildren: null,
      goodWithCats: false,
      colors: [],
      adoptionFee: null,
    });
  });

  test('a date in the future is refused under its field, in words, before anything is sent', async ({
    page,
    stack,
    api,
  }) => {
    const [category] = await categories(api);
    const created = await api.pets.createPet({
      body: { name: uniqueName('Early'), categoryId: category?.id ?? 1 },
    });
    const petId = created.status === 201 ? created.body.id : 0;
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await page.getByLabel('Arrival date').fill('2999-01-01');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#pet-arrived-at-error')).toHaveText(
      'Arrival date must not be in the future.',
    );
    await expect(page.getByLabel('Arrival date')).toBeFocused();
  });
});
