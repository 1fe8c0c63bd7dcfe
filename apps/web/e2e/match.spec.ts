import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TPet } from '@pets/contract';
import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe';
import { expect, type TApiClient, test } from './fixtures';
import { SCREENSHOTS_DIR } from './harness/paths';
import { categories, uniqueName } from './helpers';
import { newVisitorAddress, ScriptedVisitor } from './scripted-visitor';

const PHONE = { width: 390, height: 844 };

/** The ranked cards (not the reasons' own lists inside them). */
const matchCards = (page: Page): Locator =>
  page.getByRole('list', { name: 'Animals, best fit first' }).locator(':scope > li');

const rankedNames = (page: Page): Promise<string[]> =>
  matchCards(page).getByRole('heading', { level: 3 }).allInnerTexts();

const cardOf = (page: Page, name: string): Locator =>
  matchCards(page).filter({ has: page.getByRole('heading', { name, exact: true }) });

const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: join(SCREENSHOTS_DIR, `${name}-${width < 600 ? 'phone' : 'desktop'}.png`),
    fullPage: true,
  });
};

/** An available animal whose way with cats the store knows (true, false) or not (null). */
const newAnimal = async (api: TApiClient, prefix: string, goodWithCats: boolean | null) => {
  const [category] = await categories(api);
  const created = await api.pets.createPet({
    body: {
      name: uniqueName(prefix),
      categoryId: category?.id ?? 1,
      status: 'available',
      goodWithCats,
    },
  });
  expect(created.status).toBe(201);
  if (created.status !== 201) {
    throw new Error('createPet failed');
  }
  return created.body;
};

/** Three animals, the cat-friendly one the newest: a clash, an unknown, a fit. */
const threeAnimals = async (api: TApiClient) => {
  const chaser = await newAnimal(api, 'Chaser', false);
  const unsure = await newAnimal(api, 'Unsure', null);
  const friend = await newAnimal(api, 'Purrfect', true);
  return { chaser, unsure, friend };
};

/** "I have a cat", sent: the cat-friendly animal first, the others after it with their reasons. */
const expectCatHomeRanking = async (
  page: Page,
  { chaser, unsure, friend }: Record<'chaser' | 'unsure' | 'friend', TPet>,
) => {
  await expect(page.getByRole('heading', { level: 2, name: 'Your matches' })).toBeVisible();
  const names = await rankedNames(page);
  expect(names[0], 'the newest cat-friendly animal leads').toBe(friend.name);
  expect(names.indexOf(unsure.name), 'an unknown after the known fit').toBeGreaterThan(0);
  expect(names.indexOf(chaser.name), 'a clash after the unknown, not hidden').toBeGreaterThan(
    names.indexOf(unsure.name),
  );
  await expect(cardOf(page, friend.name).getByRole('listitem')).toHaveText(['Good with cats']);
  await expect(cardOf(page, unsure.name).getByRole('listitem')).toHaveText([
    'Not known yet: how it is with cats',
  ]);
  await expect(cardOf(page, chaser.name).getByRole('listitem')).toHaveText([
    'Best without cats: you have a cat',
  ]);
  // An alert for the answers' musts can be saved from here, as from Browse.
  await expect(
    page.getByRole('region', { name: 'Email me when a new animal matches' }),
  ).toContainText('Your search: Animals, good with cats.');
};

test.describe('Find your match', () => {
  test('a visitor with a cat sees the cat-friendly animal first, with why; the answers survive a reload', async ({
    page,
    stack,
    api,
  }) => {
    const animals = await threeAnimals(api);
    await page.goto(stack.siteUrl);
    await page.getByRole('link', { name: 'Find your match' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find your match');
    await expect(page).toHaveTitle(/^Find your match · /);
    await expect(page.getByRole('heading', { level: 2, name: 'How we rank' })).toBeVisible();

    await page
      .getByRole('group', { name: 'Other animals at home?' })
      .getByRole('checkbox', { name: 'A cat' })
      .check();
    await page.getByRole('button', { name: 'Show my matches' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/match?pets=cats#matches`);
    await expectCatHomeRanking(page, animals);

    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'A cat' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'A dog' })).not.toBeChecked();
    await expectCatHomeRanking(page, animals);

    // An animal's page, and back to the same matches.
    await page.getByRole('link', { name: animals.friend.name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(animals.friend.name);
    await page.getByRole('link', { name: 'Back to your matches' }).click();
    // Next.js' router may bring back the fragment this address had in the history (#matches).
    await expect(page).toHaveURL(/\/match\?pets=cats(#matches)?$/);
    await expectCatHomeRanking(page, animals);

    // A flat and calm days as well: the answers join the address in the questions' order.
    await page.getByRole('radio', { name: 'A flat or apartment' }).check();
    await page.getByRole('radio', { name: /^Calm/ }).check();
    await page.getByRole('button', { name: 'Show my matches' }).click();
    await expect(page).toHaveURL(
      `${stack.siteUrl}/match?home=flat&pets=cats&activity=calm#matches`,
    );
    await expect(page.getByRole('radio', { name: 'A flat or apartment' })).toBeChecked();
    await expect(cardOf(page, animals.friend.name).getByRole('listitem')).toHaveText([
      'Good with cats',
      'Not known yet: how much exercise it needs',
    ]);
    await page.getByRole('link', { name: 'Start again' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/match`);
    await expect(page.getByRole('checkbox', { name: 'A cat' })).not.toBeChecked();
    await expect(page.getByRole('heading', { name: 'Your matches' })).toHaveCount(0);
  });

  test('asks first which kind of animal, and ranks only that kind; any kind is said to rank them all', async ({
    page,
    stack,
    api,
  }) => {
    const all = await categories(api);
    const dogs = all.find((category) => category.name === 'Dogs');
    const fish = all.find((category) => category.name === 'Fish');
    expect(dogs && fish).toBeDefined();
    const animalOf = async (prefix: string, categoryId: number) => {
      const created = await api.pets.createPet({
        body: { name: uniqueName(prefix), categoryId, status: 'available', goodWithCats: true },
      });
      expect(created.status).toBe(201);
      return created.body as TPet;
    };
    const dog = await animalOf('Rover', dogs?.id ?? 0);
    const goldfish = await animalOf('Bubbles', fish?.id ?? 0);

    await page.goto(`${stack.siteUrl}/match`);
    const kind = 'Which kind of animal are you looking for?';
    await expect(
      page.getByRole('form', { name: 'Your home' }).getByRole('group').first(),
    ).toHaveAccessibleName(kind);
    await page.getByRole('group', { name: kind }).getByRole('radio', { name: 'Dogs' }).check();
    await page.getByRole('checkbox', { name: 'A cat' }).check();
    await page.getByRole('button', { name: 'Show my matches' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/match?kind=${dogs?.id}&pets=cats#matches`);
    await expect(page.getByRole('heading', { level: 2, name: 'Your matches' })).toBeVisible();
    const dogsOnly = await rankedNames(page);
    expect(dogsOnly).toContain(dog.name);
    expect(dogsOnly).not.toContain(goldfish.name);
    await expect(page.locator('.match__results .results__summary')).toContainText('dogs');
    await expect(
      page.getByRole('group', { name: kind }).getByRole('radio', { name: 'Dogs' }),
    ).toBeChecked();
    // The alert saved from here is for dogs too.
    await expect(
      page.getByRole('region', { name: 'Email me when a new animal matches' }),
    ).toContainText('Your search: Dogs, good with cats.');

    // Any kind: every kind is ranked together, and the page says so in words.
    await page.getByRole('group', { name: kind }).getByRole('radio', { name: 'Any kind' }).check();
    await page.getByRole('button', { name: 'Show my matches' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/match?kind=any&pets=cats#matches`);
    await expect(page.getByRole('heading', { level: 2, name: 'Your matches' })).toBeVisible();
    const anyKind = await rankedNames(page);
    expect(anyKind).toContain(dog.name);
    expect(anyKind).toContain(goldfish.name);
    await expect(page.locator('.match__results')).toContainText(
      'You chose any kind of animal, so every kind is ranked together',
    );
  });

  test('works with JavaScript disabled', async ({ browser, stack, api }) => {
    const animals = await threeAnimals(api);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.siteUrl}/match`);
    await page.getByRole('checkbox', { name: 'A cat' }).check();
    await page.getByRole('radio', { name: 'Home most of the day' }).check();
    await page.getByRole('button', { name: 'Show my matches' }).click();
    await expect(page).toHaveURL(`${stack.siteUrl}/match?pets=cats&time=home#matches`);
    await expectCatHomeRanking(page, animals);
    await context.close();
  });

  test("the matches count against the visitor's page limit at the edge; another visitor still gets theirs", async ({
    stack,
  }) => {
    test.setTimeout(120_000); // 320 page views, 20 at a time
    // The guarded site keeps the default limits: 300 page views a minute per visitor.
    const eager = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const statuses: number[] = [];
    for (let round = 0; round < 16; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => eager.request('/match?pets=cats')),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(300);
    expect(statuses).toContain(429);
    const refused = await eager.request('/match?pets=dogs');
    expect(refused.status).toBe(429);
    expect(refused.body).toContain("We're getting a lot of visits");

    const other = new ScriptedVisitor(stack.guardedSiteUrl, newVisitorAddress());
    const answer = await other.request('/match?pets=cats');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Your matches');
  });

  test('the form and the results: axe clean and screenshots at desktop and phone width', async ({
    page,
    stack,
    api,
  }) => {
    test.setTimeout(90_000); // four axe analyses and four full-page screenshots
    await threeAnimals(api);
    for (const viewport of [undefined, PHONE]) {
      if (viewport) {
        await page.setViewportSize(viewport);
      }
      await page.goto(`${stack.siteUrl}/match`);
      await expectNoSeriousViolations(page, `the match form${viewport ? ' on a phone' : ''}`);
      await screenshot(page, 'match-form');
      await page.goto(
        `${stack.siteUrl}/match?home=flat&children=young&pets=cats&time=part&activity=moderate&experience=first`,
      );
      await expect(page.getByRole('heading', { name: 'Your matches' })).toBeVisible();
      await expectNoSeriousViolations(page, `the matches${viewport ? ' on a phone' : ''}`);
      await screenshot(page, 'match-results');
    }
  });
});
