import type { Page } from '@playwright/test';
import { fillApplication, newAvailablePet, ordersFor } from './adopt-helpers';
import { expectNoSeriousViolations } from './axe';
import { expect, test } from './fixtures';
import { signIn } from './staff-helpers';

/**
 * How the elements `selector` names read: on how many lines each one's text is laid out (an
 * address broken mid-word takes two or more), and whether the page scrolls sideways.
 */
const readability = (page: Page, selector: string) =>
  page.evaluate((css) => {
    const linesOfEach = [...document.querySelectorAll(css)].map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    const overflows = document.documentElement.scrollWidth > window.innerWidth;
    return { linesOfEach, overflows };
  }, selector);

/**
 * Many applications for one animal: two adopters apply on the site, the animal's page counts them
 * without names, staff find them by name, email or reference, compare them side by side in arrival
 * order (at a desk's width and a phone's), approve one (the other waitlisted) and decline the
 * other with a reason and a note, which its adopter reads on the status page.
 */
test('two adopters apply for one animal; staff approve one and decline the other with a reason', async ({
  page,
  browser,
  stack,
  api,
}) => {
  // Two adopters' browsers and a staff member's, one after the other.
  test.setTimeout(120_000);
  const pet = await newAvailablePet(api, 'Pair');

  // Two adopters, each in a browser of their own, apply while the animal is available.
  const apply = async (
    name: string,
    email: string,
    answers: { household?: string; otherAnimals?: string; message?: string } = {},
  ): Promise<string> => {
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await fillApplication(visitorPage, { name, email, ...answers });
    await visitorPage.getByRole('button', { name: 'Send application' }).click();
    await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(
      /^Thank you for applying/,
    );
    const reference = ((await visitorPage.locator('.reference').textContent()) ?? '').trim();
    await visitor.close();
    return reference;
  };
  const ada = await apply('Ada Lovelace', 'ada.lovelace.pair@example.org', {
    household: 'Two adults and a 7-year-old; a house with a garden',
    otherAnimals: 'A 10-year-old cat',
    message: 'We walk by the river every morning.',
  });
  const bo = await apply('Bo Bramble', 'bo.pair@example.org', { otherAnimals: 'None' });

  // The public page counts them, names no one, and still takes applications.
  await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
  await expect(page.getByText('2 applications in review')).toBeVisible();
  await expect(page.getByText('Ada Lovelace')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Apply to adopt' })).toBeVisible();

  // Staff find them by email address, by reference and by name, from the queue's search box.
  await signIn(page, stack.siteUrl, stack.staffAccount);
  const search = async (text: string) => {
    await page.goto(`${stack.siteUrl}/staff/applications`);
    await page.getByLabel('Search by name, email or reference').fill(text);
    await page.getByRole('button', { name: 'Show' }).click();
    return page.getByRole('list', { name: `Applications for ${pet.name}` }).getByRole('listitem');
  };
  for (const [text, who] of [
    ['BO.PAIR@example.org', 'Bo Bramble'],
    [ada, 'Ada Lovelace'],
    ['lovel ad', 'Ada Lovelace'],
  ] as const) {
    const found = await search(text);
    await expect(found, text).toHaveCount(1);
    await expect(found).toContainText(who);
    await expect(page.getByLabel('Search by name, email or reference')).toHaveValue(text);
  }
  await search('Nobody Atall');
  await expect(page.getByRole('status')).toContainText('No applications found for “Nobody Atall”');

  // The animal's applications side by side, in the order they arrived: what each adopter said of
  // their household, other animals, their message and when, readable at a desk and on a phone.
  await page.goto(`${stack.siteUrl}/staff/applications?petId=${pet.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Applications for ${pet.name}`);
  const items = page.getByRole('list', { name: 'Applications' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByRole('heading')).toHaveText('Ada Lovelace');
  await expect(items.nth(1).getByRole('heading')).toHaveText('Bo Bramble');
  for (const fact of [
    ada,
    'HouseholdTwo adults and a 7-year-old; a house with a garden',
    'Other animalsA 10-year-old cat',
    'MessageWe walk by the river every morning.',
    'Emailada.lovelace.pair@example.org',
    'Arrived',
  ]) {
    await expect(items.nth(0)).toContainText(fact);
  }
  await expect(items.nth(1)).toContainText('HouseholdNot said');
  await expect(items.nth(1)).toContainText('Other animalsNone');
  await expect(items.nth(1)).toContainText('MessageNo message');
  for (const [width, isSideBySide] of [
    [1280, true],
    [390, false],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    const [first, second] = [await items.nth(0).boundingBox(), await items.nth(1).boundingBox()];
    expect(first && second && second.x > first.x && second.y === first.y, `${width}`).toBe(
      isSideBySide,
    );
    expect(await readability(page, '.compare__email'), `${width}`).toEqual({
      linesOfEach: [1, 1],
      overflows: false,
    });
    await expectNoSeriousViolations(page, `An animal's applications side by side (${width})`);
  }

  // Approve Ada: Bo goes on the waiting list.
  await items.nth(0).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Application ${ada}: ${pet.name}`,
  );
  // Her page keeps her address on one line beside its label, at a desk and on a phone.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await readability(page, '.facts a[href^="mailto:"]'), `${width}`).toEqual({
      linesOfEach: [1],
      overflows: false,
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('link', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { name: /Approve this application\?/ })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, approve' }).click();
  await expect(page.getByRole('status')).toContainText('Approved.');
  // What the contract allows from approved: decline, complete, cancel; not approve again.
  const actions = page.locator('.application__actions').getByRole('link');
  await expect(actions).toHaveText(['Decline', 'Complete adoption', 'Cancel application']);

  await page.goto(`${stack.siteUrl}/staff/applications?petId=${pet.id}`);
  await expect(items.nth(1)).toContainText('Waitlisted');

  // Decline Bo, with a reason and a note for him.
  await items.nth(1).getByRole('link').click();
  await page.getByRole('link', { name: 'Decline' }).click();
  await expect(page.getByRole('heading', { name: /Decline this application\?/ })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, decline' }).click();
  // No reason chosen: the browser (or the server) asks for one, nothing changes.
  await expect(page.getByRole('button', { name: 'Yes, decline' })).toBeVisible();
  await page
    .getByLabel('Reason', { exact: true })
    .selectOption({ label: 'Not a match for this animal' });
  await page.getByLabel('Note for the adopter (optional)').fill('We hope you find a friend soon.');
  await page.getByRole('button', { name: 'Yes, decline' }).click();
  await expect(page.getByRole('status')).toContainText('Declined.');
  await expect(page.getByText('Declined', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Not a match for this animal')).toBeVisible();
  // Nothing more to do with a declined application.
  await expect(page.locator('.application__actions')).toHaveCount(0);
  // A private note for colleagues, signed with the staff key's name.
  await page.getByLabel('Add a note').fill('Told him about the rabbits that need a home too.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByRole('status')).toHaveText('Note added.');
  const notes = page.getByRole('list', { name: 'Staff notes' }).getByRole('listitem');
  await expect(notes).toHaveCount(1);
  await expect(notes.first()).toContainText('Told him about the rabbits that need a home too.');
  await expect(notes.first()).toContainText('Front desk');

  const orders = await ordersFor(api, pet.id);
  expect(orders.map(({ status }) => status).sort()).toEqual(['approved', 'declined']);
  expect(orders.find(({ status }) => status === 'declined')).toMatchObject({
    adopter: { name: 'Bo Bramble' },
    declineReason: 'not_a_match',
    declineNote: 'We hope you find a friend soon.',
  });

  // Bo reads it on his status page, kindly worded, with the store's note (not the staff's).
  const visitor = await browser.newContext();
  const boPage = await visitor.newPage();
  await boPage.goto(`${stack.siteUrl}/applications/status`);
  await boPage.getByLabel('Reference', { exact: true }).fill(bo);
  await boPage.getByLabel('Email', { exact: true }).fill('bo.pair@example.org');
  await boPage.getByRole('button', { name: 'Show my application' }).click();
  await expect(boPage.getByText('not the right match')).toBeVisible();
  await expect(boPage.getByText('We hope you find a friend soon.')).toBeVisible();
  await expect(boPage.getByText('rabbits')).toHaveCount(0);
  await visitor.close();

  // The animal is on hold for Ada: pending, and nothing in review any more.
  await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
  await expect(page.locator('dl.facts')).toContainText('Pending adoption');
  await expect(page.getByText(/applications? in review/)).toHaveCount(0);
});

/**
 * An animal with more applications than one page of the API holds: staff still read all of them
 * in the order they arrived, the first applicant first (the API lists newest first, 100 at most).
 */
test("one animal's 105 applications read in arrival order, on one page", async ({
  page,
  stack,
  staffApi,
}) => {
  test.setTimeout(120_000);
  const pet = await newAvailablePet(staffApi, 'Crowd');
  const ids: number[] = [];
  for (let index = 0; index < 105; index += 1) {
    const placed = await staffApi.orders.placeOrder({
      body: {
        petId: pet.id,
        adopter: { name: `Applicant ${index + 1}`, email: `crowd.${pet.id}.${index}@example.org` },
      },
      headers: {},
    });
    expect(placed.status).toBe(201);
    if (placed.status === 201) {
      ids.push(placed.body.id);
    }
  }
  await signIn(page, stack.siteUrl, stack.staffAccount);
  await page.goto(`${stack.siteUrl}/staff/applications?petId=${pet.id}`);
  const items = page.getByRole('list', { name: 'Applications' }).getByRole('listitem');
  await expect(items).toHaveCount(105);
  await expect(items.first().getByRole('heading')).toHaveText('Applicant 1');
  await expect(items.first()).toContainText(`A-${ids[0]}`);
  await expect(items.last().getByRole('heading')).toHaveText('Applicant 105');
  await expect(page.getByRole('link', { name: /next/i })).toHaveCount(0);
});
