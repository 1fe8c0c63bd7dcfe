import { fillApplication } from './adopt-helpers';
import { expect, test } from './fixtures';
import { categories, uniqueName } from './helpers';
import { signIn } from './staff-helpers';

/**
 * The whole story: an adopter applies for an animal, which stays available with one application
 * in review; a staff member signs in, approves (the animal pending), completes, and the animal
 * shows as adopted on the public site, and the adopter's status page shows each step. Both sides
 * use only the site.
 */
test('an animal goes from available to adopted: adopter applies, staff approve and complete', async ({
  page,
  browser,
  stack,
  api,
  staffApi,
}) => {
  const category = (await categories(api))[0];
  const name = uniqueName('Story');
  const created = await api.pets.createPet({
    body: { name, categoryId: category?.id ?? 1, status: 'available' },
  });
  expect(created.status).toBe(201);
  const petId = created.status === 201 ? created.body.id : 0;

  // The adopter applies on the site, in a browser of their own: the animal's page, its form.
  const visitor = await browser.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto(`${stack.siteUrl}/pets/${petId}`);
  await publicPage.getByRole('link', { name: 'Apply to adopt' }).click();
  await fillApplication(publicPage, {
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    phone: '+44 20 7946 0958',
    message: 'We have a garden and a lot of time.',
  });
  await publicPage.getByRole('button', { name: 'Send application' }).click();
  await expect(publicPage.getByRole('heading', { level: 1 })).toHaveText(/^Thank you for applying/);
  const reference = ((await publicPage.locator('.reference').textContent()) ?? '').trim();
  expect(reference).toMatch(/^A-\d+$/);
  const orderId = Number(reference.slice(2));

  // The adopter's status page, with the reference and the email: the steps so far.
  const progress = async (): Promise<string[]> => {
    await publicPage.goto(`${stack.siteUrl}/applications/status`);
    await publicPage.getByLabel('Reference', { exact: true }).fill(reference);
    await publicPage.getByLabel('Email', { exact: true }).fill('ada@example.org');
    await publicPage.getByRole('button', { name: 'Show my application' }).click();
    const steps = publicPage.getByRole('list', { name: 'Progress' }).getByRole('listitem');
    await expect(steps.first()).toBeVisible();
    return (await steps.allTextContents()).map((step) => step.trim());
  };
  expect(await progress()).toEqual([expect.stringMatching(/^Application received/)]);

  // An application does not hold the animal: it is still available, one application in review.
  await publicPage.goto(`${stack.siteUrl}/pets/${petId}`);
  await expect(publicPage.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(publicPage.locator('dl.facts')).toContainText('StatusAvailable');
  await expect(publicPage.getByText('1 application in review')).toBeVisible();

  // Staff sign in and find the application first in the queue of new ones, under the animal's
  // name, by the reference the adopter was given.
  await signIn(page, stack.siteUrl, stack.staffAccount);
  await page.getByLabel('Status').selectOption({ label: 'New' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/status=placed/);
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  const first = page.getByRole('list', { name: `Applications for ${name}` }).getByRole('listitem');
  await expect(first).toHaveCount(1);
  await expect(first).toContainText('Ada Lovelace');
  await expect(first).toContainText(reference);
  await expect(first).toContainText('New');
  await first.getByRole('link').click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Application ${reference}: ${name}`,
  );
  await expect(page.getByText('ada@example.org')).toBeVisible();
  await expect(page.getByText('+44 20 7946 0958')).toBeVisible();
  await expect(page.getByText('We have a garden and a lot of time.')).toBeVisible();
  await expect(page.getByRole('list').filter({ hasText: 'Application received' })).toBeVisible();

  // Approve, with a confirmation step; the adopter sees it on their status page.
  await page.getByRole('link', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { name: /Approve this application\?/ })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, approve' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Approved. The animal is set aside for this adopter; the other applications are waitlisted.',
  );
  await expect(page.getByText('Approved', { exact: true }).first()).toBeVisible();
  expect(await progress()).toEqual([
    expect.stringMatching(/^Application received/),
    expect.stringMatching(/^Approved by the store/),
  ]);
  // Now the animal is on hold for Ada: pending on the public site.
  await publicPage.goto(`${stack.siteUrl}/pets/${petId}`);
  await expect(publicPage.locator('dl.facts')).toContainText('StatusPending adoption');
  await expect(publicPage.getByText(/applications? in review/)).toHaveCount(0);

  // Complete, confirmed.
  await page.getByRole('link', { name: 'Complete adoption' }).click();
  await page.getByRole('button', { name: 'Yes, complete adoption' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Adoption completed. The animal is now shown as adopted; the other applications are closed.',
  );
  // The history names who took each step: the adopter, then the staff member, never a key.
  const history = page.locator('ol.history li');
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toContainText('Application received');
  await expect(history.nth(0)).toContainText('by Ada Lovelace, the adopter');
  await expect(history.nth(1)).toContainText('Approved');
  await expect(history.nth(1)).toContainText(`by ${stack.staffAccount.name}`);
  await expect(history.nth(2)).toContainText('Adoption completed');
  await expect(history.nth(2)).toContainText(`by ${stack.staffAccount.name}`);
  await expect(page.locator('ol.history')).not.toContainText('by key');
  // Nothing more to do with a completed application.
  await expect(page.getByRole('link', { name: 'Cancel application' })).toHaveCount(0);

  // The API recorded who did what: the adopter's side (the site's key) placed it, the staff
  // member, by name, approved and completed it.
  const order = await staffApi.orders.getOrder({ params: { orderId } });
  expect(order.status).toBe(200);
  const webStart = stack.webApiKey.slice(0, stack.webApiKey.indexOf('_', 5) + 5);
  expect(
    order.status === 200 && order.body.history.map(({ to, by, byName }) => `${to} ${byName ?? by}`),
  ).toEqual([
    `placed ${webStart}`,
    `approved ${stack.staffAccount.name}`,
    `completed ${stack.staffAccount.name}`,
  ]);

  // The adopter's status page shows each step, and the public site the animal as adopted.
  expect(await progress()).toEqual([
    expect.stringMatching(/^Application received/),
    expect.stringMatching(/^Approved by the store/),
    expect.stringMatching(/^Adoption completed: gone home/),
  ]);
  await publicPage.goto(`${stack.siteUrl}/pets/${petId}`);
  await expect(publicPage.locator('dl.facts')).toContainText('StatusAdopted');
  await visitor.close();
});

test('a confirmation sent twice is one change: the retry gets the first answer (Idempotency-Key)', async ({
  page,
  stack,
  api,
}) => {
  const [category] = await categories(api);
  const created = await api.pets.createPet({
    body: { name: uniqueName('Twice'), categoryId: category?.id ?? 1, status: 'available' },
  });
  const petId = created.status === 201 ? created.body.id : 0;
  const placed = await api.orders.placeOrder({
    body: { petId, adopter: { name: 'Sent Twice', email: 'twice@example.org' } },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  const orderId = placed.status === 201 ? placed.body.id : 0;
  await signIn(page, stack.siteUrl, stack.staffAccount);
  const confirmUrl = `${stack.siteUrl}/staff/applications/${orderId}?confirm=approve`;
  await page.goto(confirmUrl);
  // The form exactly as the browser would send it without JavaScript (React renders the server
  // action's id as a hidden field), posted twice with the session cookie: a resent form.
  const fields = await page
    .locator('form.confirm__form input')
    .evaluateAll((inputs) =>
      (inputs as HTMLInputElement[]).map((input) => [input.name, input.value] as const),
    );
  expect(fields.map(([name]) => name)).toEqual(
    expect.arrayContaining(['orderId', 'action', 'idempotencyKey']),
  );
  const multipart = Object.fromEntries(fields);
  const first = await page.request.post(confirmUrl, { multipart, maxRedirects: 0 });
  const second = await page.request.post(confirmUrl, { multipart, maxRedirects: 0 });
  // Both answered as the first: approved (a second approval without the key would be a 409).
  for (const response of [first, second]) {
    expect(response.status()).toBe(303);
    expect(response.headers().location).toMatch(/\?done=approve$/);
  }
  const order = await api.orders.getOrder({ params: { orderId } });
  expect(order.status === 200 && order.body.history.map(({ to }) => to)).toEqual([
    'placed',
    'approved',
  ]);
});
