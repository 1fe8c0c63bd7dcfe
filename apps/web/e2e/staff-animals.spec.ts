import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TNewPetInput, TPet } from '@pets/contract/schemas';
import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe';
import { expect, type TApiClient, test } from './fixtures';
import { SCREENSHOTS_DIR } from './harness/paths';
import { categories, uniqueName } from './helpers';
import { addPhotoThroughApi, makePhoto } from './photo-helpers';
import { signIn } from './staff-helpers';

/** Picks one of a yes/no detail's three radios (Yes, No, Not known) in the edit form. */
const answer = (page: Page, detail: string, words: 'Yes' | 'No' | 'Not known') =>
  page
    .getByRole('group', { name: detail, exact: true })
    .getByRole('radio', { name: words, exact: true })
    .check();

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
    await answer(page, 'Good with children', 'Yes');
    await answer(page, 'Good with cats', 'No');
    await answer(page, 'Special needs', 'Yes');
    await answer(page, 'House-trained', 'Yes');
    await answer(page, 'Spayed or neutered', 'No');
    await answer(page, 'Vaccinations up to date', 'Yes');
    await page.getByLabel('About the special needs').fill('Needs a ramp to the sofa.');
    await page.getByLabel('Energy').selectOption('low');
    await page.getByLabel('Coat', { exact: true }).selectOption('long');
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
    await expect(
      page.getByRole('group', { name: 'Good with children' }).getByRole('radio', { name: 'Yes' }),
    ).toBeChecked();
    await expect(
      page.getByRole('group', { name: 'Good with dogs' }).getByRole('radio', { name: 'Not known' }),
    ).toBeChecked();

    const stored = await api.pets.listPets({ query: { id: String(petId) } });
    expect(stored.status === 200 && stored.body[0]).toMatchObject({
      goodWithChildren: true,
      goodWithDogs: null,
      goodWithCats: false,
      houseTrained: true,
      spayedNeutered: false,
      vaccinated: true,
      specialNeeds: true,
      specialNeedsNote: 'Needs a ramp to the sofa.',
      energyLevel: 'low',
      coatLength: 'long',
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
    await answer(page, 'Good with children', 'Not known');
    await answer(page, 'Spayed or neutered', 'Not known');
    await page.getByLabel('About the special needs').fill('');
    await page.getByLabel('Energy').selectOption({ label: 'Not said' });
    await page.getByLabel('Main colour').selectOption({ label: 'None' });
    await page.getByLabel('Second colour').selectOption({ label: 'None' });
    await page.getByLabel('Adoption fee').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const cleared = await api.pets.listPets({ query: { id: String(petId) } });
    expect(cleared.status === 200 && cleared.body[0]).toMatchObject({
      goodWithChildren: null,
      goodWithCats: false,
      spayedNeutered: null,
      specialNeedsNote: null,
      energyLevel: null,
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

const PHONE = { width: 390, height: 844 };

/** A screenshot of the page as it is now, named by its width (as the accessibility specs do). */
const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: join(SCREENSHOTS_DIR, `${name}-${width < 600 ? 'phone' : 'desktop'}.png`),
    fullPage: true,
  });
};

/** Animals made through the API, each named `${herd} ${suffix}`, with the details given. */
const makeHerd = async (
  api: TApiClient,
  herd: string,
  animals: { suffix: string; details?: Partial<TNewPetInput> }[],
): Promise<TPet[]> => {
  const [category] = await categories(api);
  const made: TPet[] = [];
  for (const { suffix, details } of animals) {
    const created = await api.pets.createPet({
      body: {
        name: `${herd} ${suffix}`,
        categoryId: category?.id ?? 1,
        status: 'available',
        ...details,
      },
    });
    if (created.status !== 201) {
      throw new Error(`createPet answered ${created.status}`);
    }
    made.push(created.body);
  }
  return made;
};

/** The names in the list's rows, in order. */
const rowNames = (page: Page) => page.locator('tbody th[scope="row"] a').allTextContents();

/** Searches the back office's animals list by name, as staff would. */
const search = async (page: Page, siteUrl: string, name: string) => {
  await page.goto(`${siteUrl}/staff/animals`);
  await page.getByLabel('Search by name').fill(name);
  await page.getByRole('button', { name: 'Show animals' }).click();
  await expect(page).toHaveURL(/[?&]name=/);
};

test.describe('The animals list in the back office', () => {
  test('search by name finds the animal; a detail filter narrows the list; both stay across pages', async ({
    page,
    stack,
    api,
  }) => {
    test.setTimeout(90_000);
    const herd = uniqueName('Herd');
    const [calm, lively] = await makeHerd(api, herd, [
      { suffix: 'Calm', details: { goodWithDogs: true, energyLevel: 'low' } },
      { suffix: 'Lively', details: { goodWithDogs: false, energyLevel: 'high' } },
    ]);
    await signIn(page, stack.siteUrl, stack.staffAccount);

    // The name search: one animal by its whole name, both by the herd's.
    await search(page, stack.siteUrl, calm?.name ?? '');
    expect(await rowNames(page)).toEqual([calm?.name]);
    await search(page, stack.siteUrl, herd);
    expect((await rowNames(page)).sort()).toEqual([calm?.name, lively?.name].sort());

    // A new detail narrows it; the search box and the filter keep their values in the address.
    await page.getByLabel('Good with dogs').selectOption({ label: 'Yes' });
    await page.getByRole('button', { name: 'Show animals' }).click();
    await expect(page).toHaveURL(/goodWithDogs=true/);
    expect(await rowNames(page)).toEqual([calm?.name]);
    await expect(page.getByLabel('Search by name')).toHaveValue(herd);
    await expect(page.getByLabel('Good with dogs')).toHaveValue('true');
    await page.getByLabel('Good with dogs').selectOption({ label: 'Any' });
    await page.getByLabel('Energy').selectOption({ label: 'High' });
    await page.getByRole('button', { name: 'Show animals' }).click();
    expect(await rowNames(page)).toEqual([lively?.name]);

    // Nothing matches: said in words, with the way back.
    await page.goto(
      `${stack.siteUrl}/staff/animals?name=${encodeURIComponent(herd)}&status=pending`,
    );
    await expect(page.getByRole('status')).toContainText('No animals match');

    // Paging keeps the filters: 21 animals of another herd, 20 a page.
    const flock = uniqueName('Flock');
    await makeHerd(
      api,
      flock,
      Array.from({ length: 21 }, (_, index) => ({ suffix: `N${index + 1}` })),
    );
    await search(page, stack.siteUrl, flock);
    await expect(page.locator('tbody tr')).toHaveCount(20);
    await page.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page).toHaveURL(/name=/);
    expect(await rowNames(page)).toEqual([`${flock} N1`]);
    await expect(page.getByLabel('Search by name')).toHaveValue(flock);
    await page.getByRole('link', { name: 'Previous' }).click();
    await expect(page.locator('tbody tr')).toHaveCount(20);
  });

  test('each row has a thumbnail: the first photo with its alt, or the drawing when none', async ({
    page,
    stack,
    api,
  }) => {
    const herd = uniqueName('Pictured');
    const [shown, plain] = await makeHerd(api, herd, [{ suffix: 'Shown' }, { suffix: 'Plain' }]);
    await addPhotoThroughApi(api, shown?.id ?? 0, await makePhoto());
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await search(page, stack.siteUrl, herd);
    const photo = page.getByRole('img', { name: `Photo of ${shown?.name}` });
    await expect(photo).toBeVisible();
    // The small file the photo lists use, loaded (not a broken image).
    await expect(photo).toHaveAttribute('srcset', / 160w/);
    await expect
      .poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    const plainRow = page.locator('tbody tr').filter({ hasText: plain?.name ?? '' });
    await expect(plainRow.getByRole('img')).toHaveCount(0);
    await expect(plainRow.locator('.visual--thumb svg')).toHaveCount(1);
  });

  test('three ticked animals get "Good with cats: Yes"; the others keep theirs; axe and screenshots', async ({
    page,
    stack,
    api,
  }) => {
    test.setTimeout(120_000);
    const herd = uniqueName('Trio');
    const pets = await makeHerd(api, herd, [
      { suffix: 'Ada' },
      { suffix: 'Bix' },
      { suffix: 'Cy' },
      { suffix: 'Dot', details: { goodWithCats: false } },
    ]);
    const chosen = pets.slice(0, 3);
    const left = pets[3];
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await search(page, stack.siteUrl, herd);

    // Nothing ticked: said in words, focused, nothing sent.
    await page.getByLabel('Field and value').selectOption({ label: 'Good with cats: Yes' });
    await page.getByRole('button', { name: 'Set for ticked animals' }).click();
    const refusal = page.locator('#bulk-error');
    await expect(refusal).toHaveText(
      'Tick at least one animal in the list, then set the field again.',
    );
    await expect(refusal).toBeFocused();

    for (const pet of chosen) {
      await page.getByRole('checkbox', { name: `Select ${pet.name}` }).check();
    }
    for (const viewport of [undefined, PHONE]) {
      if (viewport) {
        await page.setViewportSize(viewport);
      }
      await expectNoSeriousViolations(page, `Animals, three ticked${viewport ? ', phone' : ''}`);
      await screenshot(page, 'staff-animals-ticked');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Field and value').selectOption({ label: 'Good with cats: Yes' });
    await page.getByRole('button', { name: 'Set for ticked animals' }).click();
    const answer = page.getByRole('status').filter({ hasText: 'Good with cats' });
    await expect(answer).toHaveText('Good with cats: Yes, for 3 animals.');
    await expect(answer).toBeFocused();

    const stored = await api.pets.listPets({
      query: { id: pets.map((pet) => pet.id).join(','), limit: 4 },
    });
    const byId = new Map((stored.status === 200 ? stored.body : []).map((pet) => [pet.id, pet]));
    for (const pet of chosen) {
      expect(byId.get(pet.id)?.goodWithCats, pet.name).toBe(true);
    }
    expect(byId.get(left?.id ?? 0)?.goodWithCats).toBe(false);

    // The list shows it, and so does each animal's public page.
    const cats = await page.locator('tbody tr td:nth-child(7)').allTextContents();
    expect(cats.filter((text) => text === 'Yes')).toHaveLength(3);
    for (const pet of chosen) {
      await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
      await expect(page.getByRole('region', { name: 'Good with, and needs' })).toContainText(
        'Good with cats',
      );
    }
  });

  test('what could not be changed is named with why; more than 100 ticked changes nothing', async ({
    page,
    stack,
    api,
  }) => {
    const herd = uniqueName('Partial');
    const [kept] = await makeHerd(api, herd, [{ suffix: 'Kept' }]);
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await search(page, stack.siteUrl, herd);
    /** Ticks of animals the list does not show (a tampered form, or an animal gone meanwhile). */
    const addTicks = (ids: number[]) =>
      page.evaluate((values) => {
        const form = document.querySelector('form.bulk');
        for (const value of values) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = 'pet';
          input.value = String(value);
          input.className = 'extra-tick';
          form?.append(input);
        }
      }, ids);

    await addTicks(Array.from({ length: 101 }, (_, index) => 900_000_000 + index));
    await page.getByLabel('Field and value').selectOption({ label: 'Coat: Short' });
    await page.getByRole('button', { name: 'Set for ticked animals' }).click();
    await expect(page.locator('#bulk-error')).toHaveText(
      'You ticked 101 animals; one change covers 100 at most. Nothing was changed.',
    );

    await page.evaluate(() => {
      for (const input of document.querySelectorAll('.extra-tick')) {
        input.remove();
      }
    });
    await page.getByRole('checkbox', { name: `Select ${kept?.name}` }).check();
    await addTicks([987_654_321]);
    await page.getByLabel('Field and value').selectOption({ label: 'Coat: Short' });
    await page.getByRole('button', { name: 'Set for ticked animals' }).click();
    const answer = page.locator('main').getByRole('alert');
    await expect(answer).toContainText('Coat: Short, for 1 animal of the 2 ticked.');
    await expect(answer).toContainText('An animal (#987654321): it is no longer in our records.');
    await expect(answer).toBeFocused();
    const stored = await api.pets.listPets({ query: { id: String(kept?.id) } });
    expect(stored.status === 200 && stored.body[0]?.coatLength).toBe('short');
  });

  test('without JavaScript: "Select all on this page", then one field for all of them', async ({
    browser,
    stack,
    api,
  }) => {
    const herd = uniqueName('Quiet');
    const pets = await makeHerd(api, herd, [{ suffix: 'One' }, { suffix: 'Two' }]);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, stack.siteUrl, stack.staffAccount);
    await search(page, stack.siteUrl, herd);
    await page.getByRole('link', { name: 'Select all on this page' }).click();
    await expect(page).toHaveURL(/select=all/);
    for (const pet of pets) {
      await expect(page.getByRole('checkbox', { name: `Select ${pet.name}` })).toBeChecked();
    }
    await page.getByLabel('Field and value').selectOption({ label: 'Energy: High' });
    await page.getByRole('button', { name: 'Set for ticked animals' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Energy' })).toHaveText(
      'Energy: High, for 2 animals.',
    );
    const stored = await api.pets.listPets({
      query: { id: pets.map((pet) => pet.id).join(',') },
    });
    expect(stored.status === 200 && stored.body.map((pet) => pet.energyLevel)).toEqual([
      'high',
      'high',
    ]);
    await context.close();
  });
});

test.describe("An animal's history", () => {
  test('after a staff member edits an animal, its history names them and the change in words; the filter works without JavaScript; axe and screenshots', async ({
    page,
    browser,
    stack,
    api,
  }) => {
    test.setTimeout(120_000);
    const [category] = await categories(api);
    const name = uniqueName('Storied');
    // Made with the site's own key, a partner's: not audited.
    const created = await api.pets.createPet({
      body: { name, categoryId: category?.id ?? 1, status: 'available' },
    });
    const petId = created.status === 201 ? created.body.id : 0;

    await signIn(page, stack.siteUrl, stack.staffAccount);
    await page.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await answer(page, 'Good with cats', 'Yes');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(/saved=1$/);
    // Staff who are not admins get no link to the log (it is the admins').
    await expect(page.getByRole('link', { name: "this animal's history" })).toHaveCount(0);

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signIn(admin, stack.siteUrl, stack.adminAccount);
    await admin.goto(`${stack.siteUrl}/staff/animals/${petId}`);
    await admin.getByRole('link', { name: "this animal's history" }).click();
    await expect(admin).toHaveURL(`${stack.siteUrl}/staff/audit?targetType=pet&targetId=${petId}`);
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText(`History of ${name}`);
    const entries = admin.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText(
      `${stack.staffAccount.name} changed ${name}: Good with cats → Yes`,
    );
    await expect(entries.first().getByRole('link', { name })).toHaveAttribute(
      'href',
      `/staff/animals/${petId}`,
    );
    for (const viewport of [undefined, PHONE]) {
      if (viewport) {
        await admin.setViewportSize(viewport);
      }
      await expectNoSeriousViolations(admin, `An animal's history${viewport ? ', phone' : ''}`);
      await screenshot(admin, 'staff-animal-history');
    }

    // The filter is a GET form: without JavaScript, "About: Animals" and the reference "#id".
    const plain = await browser.newContext({
      storageState: await adminContext.storageState(),
      javaScriptEnabled: false,
    });
    const noScript = await plain.newPage();
    await noScript.goto(`${stack.siteUrl}/staff/audit`);
    await noScript.getByLabel('About', { exact: true }).selectOption({ label: 'Animals' });
    await noScript.getByLabel('Reference').fill(`#${petId}`);
    await noScript.getByRole('button', { name: 'Show' }).click();
    await expect(noScript).toHaveURL(/targetType=pet&targetId=%23\d+/);
    await expect(noScript.getByRole('heading', { level: 1 })).toHaveText(`History of ${name}`);
    await expect(
      noScript.getByRole('list', { name: 'Audit entries' }).getByRole('listitem'),
    ).toHaveCount(1);
    await plain.close();
    await adminContext.close();
  });
});
