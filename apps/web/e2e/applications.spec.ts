import { fillApplication, newAvailablePet, ordersFor } from './adopt-helpers';
import { expect, test } from './fixtures';
import { signIn } from './staff-helpers';

/**
 * Many applications for one animal: two adopters apply on the site, the animal's page counts them
 * without names, staff compare them in arrival order, approve one (the other waitlisted) and
 * decline the other with a reason and a note, which its adopter reads on the status page.
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
  const apply = async (name: string, email: string): Promise<string> => {
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`${stack.siteUrl}/pets/${pet.id}/apply`);
    await fillApplication(visitorPage, { name, email });
    await visitorPage.getByRole('button', { name: 'Send application' }).click();
    await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(
      /^Thank you for applying/,
    );
    const reference = ((await visitorPage.locator('.reference').textContent()) ?? '').trim();
    await visitor.close();
    return reference;
  };
  const ada = await apply('Ada Lovelace', 'ada.pair@example.org');
  const bo = await apply('Bo Bramble', 'bo.pair@example.org');

  // The public page counts them, names no one, and still takes applications.
  await page.goto(`${stack.siteUrl}/pets/${pet.id}`);
  await expect(page.getByText('2 applications in review')).toBeVisible();
  await expect(page.getByText('Ada Lovelace')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Apply to adopt' })).toBeVisible();

  // Staff list the animal's applications in the order they arrived.
  await signIn(page, stack.siteUrl, stack.staffAccount);
  await page.goto(`${stack.siteUrl}/staff/applications?petId=${pet.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Applications for ${pet.name}`);
  const items = page.getByRole('list', { name: 'Applications' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('Ada Lovelace');
  await expect(items.nth(1)).toContainText('Bo Bramble');

  // Approve Ada: Bo goes on the waiting list.
  await items.nth(0).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Application #${ada.slice(2)}: ${pet.name}`,
  );
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
  await expect(items.first()).toContainText(`Applicant 1 for ${pet.name}`);
  await expect(items.first()).toContainText(`Application #${ids[0]}`);
  await expect(items.last()).toContainText(`Applicant 105 for ${pet.name}`);
  await expect(page.getByRole('link', { name: /next/i })).toHaveCount(0);
});
